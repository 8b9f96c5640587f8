/**
 * @fileoverview Migration 0018: `recovery_tokens`, the password recovery links (docs/running-for-a-group.md,
 * "Password recovery"). A link's token is stored as its SHA-256 only, expires after an hour and works
 * once (`used_at`); a user has at most one at a time (a new link replaces the older one).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('recovery_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('recovery_tokens_user').on('recovery_tokens').column('user_id').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('recovery_tokens').ifExists().execute();
    },
  };
}
