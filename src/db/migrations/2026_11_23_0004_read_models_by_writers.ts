/**
 * @fileoverview Migration 0004: the derived read models (`usage_daily`, `usage_day_prefix`, the
 * leaderboard's per-period family totals) are kept by the ingest writers from per-upload
 * aggregated deltas (src/ingest/core/read-model-deltas.ts) instead of row/statement triggers on
 * `usage_rollup`, and `usage_daily` stores each row's cost.
 *
 * Why: the triggers ran once per changed rollup row — up to 13 prefix rows, one daily row and three
 * to six leaderboard rows each, ~190 row writes for a 10-bucket upload — while an upload's changes
 * aggregated first touch ~45 rows. Stored costs let summary and model breakdown sum costs in SQL
 * instead of pricing every (model, day) of the range on each request.
 *
 * `cost_micros` starts at 0 here; `read_model_state` records which price data priced the stored
 * costs (none yet), so the server reprices every row at start-up (src/services/repricing.ts).
 *
 * `usage_daily` is also re-keyed to (user, source, model, day): its wide reads group a range by
 * (source, model), and in key order they need no sort (measured on a one-year user: 2.3 → 1.0 ms
 * for the summary's grouped read; a 30-day read costs the same as before).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';
import * as analytics from './2026_11_22_0002_analytics_read_models.js';
import * as leaderboard from './leaderboard-aggregates.js';

const TRIGGERS: Record<DialectName, string[]> = {
  sqlite: [
    'usage_rollup_analytics_insert',
    'usage_rollup_analytics_update',
    'usage_rollup_analytics_rekey',
    'usage_rollup_analytics_delete',
    'usage_rollup_leaderboard_insert',
    'usage_rollup_leaderboard_update',
    'usage_rollup_leaderboard_rekey',
    'usage_rollup_leaderboard_delete',
  ],
  postgres: [
    'usage_rollup_analytics_insert',
    'usage_rollup_analytics_update',
    'usage_rollup_analytics_delete',
    'usage_rollup_leaderboard_insert',
    'usage_rollup_leaderboard_update',
    'usage_rollup_leaderboard_delete',
  ],
};

const COUNTS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'];

/** Rebuilds `usage_daily` with the given primary key, with or without `cost_micros` (copying the rows). */
async function rekeyDaily(db: Kysely<any>, dialect: DialectName, key: string[], withCost: boolean): Promise<void> {
  let t = db.schema
    .createTable('usage_daily_next')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull());
  for (const c of COUNTS) t = t.addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0));
  if (withCost) t = t.addColumn('cost_micros', 'bigint', (col) => col.notNull().defaultTo(0));
  await clustered(dialect, t.addPrimaryKeyConstraint('usage_daily_next_pk', key as any)).execute();
  const columns = ['user_id', 'day', 'source', 'model', ...COUNTS].join(', ');
  await sql.raw(`insert into usage_daily_next (${columns}) select ${columns} from usage_daily`).execute(db);
  await db.schema.dropTable('usage_daily').execute();
  await db.schema.alterTable('usage_daily_next').renameTo('usage_daily').execute();
  if (dialect === 'postgres')
    await sql.raw('alter table usage_daily rename constraint usage_daily_next_pk to usage_daily_pk').execute(db);
}

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      for (const name of TRIGGERS[dialect]) {
        if (dialect === 'sqlite') {
          await sql.raw(`drop trigger if exists ${name}`).execute(db);
        } else {
          await sql.raw(`drop trigger if exists ${name} on usage_rollup`).execute(db);
          await sql.raw(`drop function if exists ${name}()`).execute(db);
        }
      }
      if (dialect === 'sqlite') await db.schema.dropTable('usage_halfhour_index').ifExists().execute();
      await rekeyDaily(db, dialect, ['user_id', 'source', 'model', 'day'], true);
      await db.schema
        .createTable('read_model_state')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('read_model_state').ifExists().execute();
      await rekeyDaily(db, dialect, ['user_id', 'day', 'source', 'model'], false);
      if (dialect === 'sqlite') {
        await db.schema
          .createTable('usage_halfhour_index')
          .addColumn('k', 'integer', (c) => c.primaryKey())
          .execute();
        await sql
          .raw(
            `insert into usage_halfhour_index (k) ${Array.from({ length: 48 }, (_, i) => `select ${i + 1}`).join(' union all ')}`,
          )
          .execute(db);
        await analytics.createSqliteTriggers(db);
        await leaderboard.createSqliteTriggers(db);
      } else {
        await analytics.createPostgresTriggers(db);
        await leaderboard.createPostgresTriggers(db);
      }
    },
  };
}
