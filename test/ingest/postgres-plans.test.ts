/**
 * The PostgreSQL writer's read of what is stored probes each key through an index, whatever
 * the statistics say. Planned on empty, never-analysed tables (a new server, everyone's first
 * sync), a join over the uploads' keys became hash joins over sequential scans of whole tables,
 * kept in the connection's plan cache as they grew (db/queries/ingest-postgres.ts, SELECT_STORED).
 * The generic plan is the one a named statement keeps, so that is the one checked here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PostgresDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { SELECT_STORED } from '../../src/db/queries/ingest-postgres.js';
import { engine, postgresTestDb } from '../helpers/app.js';

describe.skipIf(engine !== 'postgres')('the PostgreSQL writer reads stored rows by key', () => {
  const database = postgresTestDb();
  let db: PostgresDb;

  beforeAll(async () => {
    db = database();
    await migrateToLatest(db);
  });

  /** The generic plan of `text` (what a named statement keeps), with every parameter NULL. */
  async function genericPlan(text: string): Promise<string> {
    const client = await db.pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE planned AS ${text}`);
      const count = Math.max(...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
      const parameters = Array.from({ length: count }, () => 'NULL').join(', ');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE planned(${parameters})`);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.query('DEALLOCATE ALL');
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  }

  it('plans no sequential scan of a usage table, on empty tables', async () => {
    const plan = await genericPlan(SELECT_STORED);
    // usage_daily may be probed by its (user, day) index (migration 0025) too: on empty tables the two
    // cost the same, and either is a probe by key; with statistics the primary key's one row wins.
    for (const [table, index] of [
      ['usage_device_days', 'usage_device_days_pk'],
      ['usage_daily', '(usage_daily_pk|usage_daily_user_day)'],
      ['usage_days', 'usage_days_pk'],
      ['devices', 'devices_pkey'],
    ] as const) {
      expect(plan).toMatch(new RegExp(`using ${index} on ${table}\\b`));
      expect(plan, plan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
    }
    // Every index scan is a probe by key, not a walk of a whole index feeding a join.
    const lines = plan.split('\n');
    lines.forEach((line, i) => {
      if (/Index (Only )?Scan using/.test(line)) expect(lines[i + 1], plan).toMatch(/Index Cond:/);
    });
    // The one hash join allowed is the days' to the devices' numbers, both sets in memory.
    for (const join of plan.matchAll(/Hash Join[^\n]*\n\s*Hash Cond: \(([^)]*)\)/g))
      expect(join[1], plan).toMatch(/= n\.device_id$/);
  });
});
