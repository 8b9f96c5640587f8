/**
 * The PostgreSQL writer's reads of what is stored, and its deletes of replaced raw buckets, probe
 * each key through its primary key, whatever the statistics say. Planned on empty, never-analysed
 * tables (a new server, everyone's first sync), a join over the uploads' keys became hash joins
 * over sequential scans of whole tables, kept in the connection's plan cache as they grew
 * (db/queries/ingest-postgres.ts, SELECT_STORED and DELETE_VARIANTS). The generic plan is the one
 * a named statement keeps, so that is the one checked here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PostgresDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { DELETE_VARIANTS, SELECT_GROUP_VARIANTS, SELECT_STORED } from '../../src/db/queries/ingest-postgres.js';
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
    for (const table of ['usage_buckets', 'usage_daily', 'usage_days']) {
      expect(plan).toContain(`using ${table}_pk on ${table}`);
      expect(plan, plan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
    }
    expect(plan).not.toContain('Hash Join');
  });

  it('reads a crowded half-hour group by group through the primary key too', async () => {
    const plan = await genericPlan(SELECT_GROUP_VARIANTS);
    expect(plan).toContain('using usage_buckets_pk on usage_buckets');
    expect(plan, plan).not.toMatch(/Seq Scan on usage_buckets\b|Hash Join/);
  });

  it('deletes replaced variants by primary-key probes, not by a scan of every raw bucket', async () => {
    const plan = await genericPlan(DELETE_VARIANTS);
    expect(plan).toContain('using usage_buckets_pk on usage_buckets');
    expect(plan, plan).not.toMatch(/Seq Scan on usage_buckets\b|Hash Join/);
  });
});
