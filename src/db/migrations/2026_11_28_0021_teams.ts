/**
 * @fileoverview Migration 0021: teams (docs/teams.md). `teams` (a name and a unique URL slug),
 * `team_members` (one row per team and user, with the role `owner`, `admin` or `member`) and
 * `team_invites` (invite links by the SHA-256 of their token: role, expiry, uses, optional e-mail).
 * Members and invites go with their team; memberships with their user.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('teams')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('team_members')
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('joined_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
        .execute();
      await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();
      await db.schema
        .createTable('team_invites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('max_uses', 'bigint', (c) => c.notNull())
        .addColumn('uses', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('team_invites_team').on('team_invites').column('team_id').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('team_invites').ifExists().execute();
      await db.schema.dropTable('team_members').ifExists().execute();
      await db.schema.dropTable('teams').ifExists().execute();
    },
  };
}
