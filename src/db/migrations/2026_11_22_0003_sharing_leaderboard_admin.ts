/**
 * @fileoverview Sharing, leaderboard snapshots, stored price data and entitlements.
 * - `public_views`: one row per user who ever turned visibility on; the share token is derived
 *   (HMAC of `token_nonce` under a server key) and only its SHA-256 is stored.
 * - `leaderboard_user_{weeks,months,totals}`: billable tokens per user, period and family, kept by
 *   triggers on `usage_rollup` (see the aggregates file).
 * - `leaderboard_runs` / `leaderboard_generations` / `leaderboard_entries` / `leaderboard_members` / `leaderboard_current`:
 *   snapshots written as a new generation, switched in one step by moving `leaderboard_current`.
 * - `pricing_data`: price data fetched by syncPricing, kept on PostgreSQL (SQLite keeps a file).
 * - `entitlements`: pro grants (admin command line), read by getUserStatus.
 * Frozen in time: later changes go into new migrations.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';
import { createLeaderboardAggregates, dropLeaderboardAggregates } from './leaderboard-aggregates.js';

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('public_views')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.unique())
        .addColumn('token_nonce', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();

      await createLeaderboardAggregates(db, dialect);

      await db.schema
        .createTable('leaderboard_runs')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('periods', 'text', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('leaderboard_generations')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('from_day', 'text', (c) => c.notNull())
        .addColumn('to_day', 'text', (c) => c.notNull())
        .addColumn('generated_at', 'bigint', (c) => c.notNull())
        .addColumn('count_all', 'bigint', (c) => c.notNull())
        .addColumn('count_gpt', 'bigint', (c) => c.notNull())
        .addColumn('count_claude', 'bigint', (c) => c.notNull())
        .addColumn('count_other', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('leaderboard_current')
        .addColumn('period', 'text', (c) => c.primaryKey())
        .addColumn('generation', 'bigint', (c) => c.notNull())
        .execute();

      // Pages: one row per (generation, metric, place), written in place order (appends), so a
      // page is a range read on the primary key; the figures come from leaderboard_members.
      await clustered(
        dialect,
        db.schema
          .createTable('leaderboard_entries')
          .addColumn('generation', 'bigint', (c) => c.notNull())
          .addColumn('metric', 'text', (c) => c.notNull())
          .addColumn('pos', 'bigint', (c) => c.notNull())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('rank', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('leaderboard_entries_pk', ['generation', 'metric', 'pos']),
      ).execute();
      // One row per ranked user and generation (for `me` and profiles), written in user id order.
      await clustered(
        dialect,
        db.schema
          .createTable('leaderboard_members')
          .addColumn('generation', 'bigint', (c) => c.notNull())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('total', 'bigint', (c) => c.notNull())
          .addColumn('gpt', 'bigint', (c) => c.notNull())
          .addColumn('claude', 'bigint', (c) => c.notNull())
          .addColumn('other', 'bigint', (c) => c.notNull())
          .addColumn('rank_all', 'bigint')
          .addColumn('rank_gpt', 'bigint')
          .addColumn('rank_claude', 'bigint')
          .addColumn('rank_other', 'bigint')
          .addPrimaryKeyConstraint('leaderboard_members_pk', ['generation', 'user_id']),
      ).execute();

      await db.schema
        .createTable('pricing_data')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('effective_from', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('fetched_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('entitlements')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('granted_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('entitlements_user').on('entitlements').column('user_id').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const table of [
        'entitlements',
        'pricing_data',
        'leaderboard_members',
        'leaderboard_entries',
        'leaderboard_current',
        'leaderboard_generations',
        'leaderboard_runs',
        'public_views',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
      await dropLeaderboardAggregates(db, dialect);
    },
  };
}
