/**
 * @fileoverview Migration 0010: what a repricing of `usage_daily.cost_micros` needs to run while
 * the server answers with the costs as they are (docs/pricing.md, "Stored costs").
 *
 * - `price_snapshots`: every price data set stored costs were, or are being, priced by, under its
 *   fingerprint, so every process prices with the data the stored costs reflect — also after a
 *   package upgrade replaced the bundled data.
 * - `usage_daily_repriced`: the new costs, with the counts they priced, written batch by batch;
 *   swapped into `usage_daily` in one transaction at the end (a row whose counts changed
 *   meanwhile is priced again then).
 * - `repricing`: at most one row, while a repricing runs: its target data, how far it got, and
 *   which process holds it until when (a lease, so a stopped process's work is taken over).
 *
 * Existing databases gain empty tables: their stored costs are current until the price data changes.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('price_snapshots')
        .addColumn('fingerprint', 'text', (c) => c.primaryKey())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('effective_from', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('saved_at', 'bigint', (c) => c.notNull())
        .execute();
      let repriced = db.schema
        .createTable('usage_daily_repriced')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull());
      for (const c of ['input', 'cached_input', 'output', 'reasoning', 'cost_micros'])
        repriced = repriced.addColumn(c, 'bigint', (col) => col.notNull());
      // The key order of usage_daily, so the swap's join walks both tables in step.
      await clustered(
        dialect,
        repriced.addPrimaryKeyConstraint('usage_daily_repriced_pk', ['user_id', 'source', 'model', 'day']),
      ).execute();
      await db.schema
        .createTable('repricing')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('after_user', 'text', (c) => c.notNull())
        .addColumn('rows_done', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('holder', 'text')
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('repricing').ifExists().execute();
      await db.schema.dropTable('usage_daily_repriced').ifExists().execute();
      await db.schema.dropTable('price_snapshots').ifExists().execute();
    },
  };
}
