/**
 * @fileoverview Migration 0024: `public_profiles`, what a user's public profile page shows
 * (docs/sharing.md, "The public profile"): an optional handle (`/u/<handle>`, stored lower-cased,
 * unique) and the fields made public, a comma-separated list of names (domain/profile-fields.ts).
 * A user without a row has no handle and the default fields.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('public_profiles')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('handle', 'text')
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('public_profiles_handle').on('public_profiles').column('handle').unique().execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('public_profiles').ifExists().execute();
    },
  };
}
