/**
 * @fileoverview Migration 0020: accounts for groups (docs/running-for-a-group.md).
 *
 * - `users.admin_since`: the instant the account became an instance admin (null: not one), and
 *   `users.disabled_at`: the instant an admin disabled it (null: enabled).
 * - `instance_settings`: small named values an admin changes at run time (`signup_mode`,
 *   `signup_email_domains`) and `first_admin`, the claim the first account takes to become admin.
 * - `invites`: sign-up invites, stored by the SHA-256 of their token.
 *
 * An instance that already has accounts makes its earliest-created account admin (and takes the
 * `first_admin` claim for it), so an upgraded instance has an admin; a new one gets its first admin
 * from its first sign-up.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('users').addColumn('admin_since', 'bigint').execute();
      await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
      await db.schema
        .createTable('instance_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('invites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text')
        .addColumn('max_uses', 'bigint', (c) => c.notNull())
        .addColumn('uses', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('invites_created').on('invites').columns(['created_at']).execute();
      const oldest = await sql<{ id: string; created_at: string | number | bigint }>`
        select id, created_at from users order by created_at, id limit 1`.execute(db);
      const first = oldest.rows[0];
      if (first !== undefined) {
        await sql`update users set admin_since = created_at where id = ${first.id}`.execute(db);
        await sql`insert into instance_settings (name, value, updated_at)
                  values ('first_admin', ${first.id}, ${BigInt(first.created_at)})`.execute(db);
      }
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('invites').execute();
      await db.schema.dropTable('instance_settings').execute();
      await db.schema.alterTable('users').dropColumn('disabled_at').execute();
      await db.schema.alterTable('users').dropColumn('admin_since').execute();
    },
  };
}
