/**
 * The SQLite writer's group commit (engine-specific, so it runs on SQLite in both passes): uploads
 * queued in one event-loop turn share a transaction, each in its own savepoint. One that fails
 * inside the writer leaves nothing behind and fails alone; the others are stored and answered.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { NormalizedBucket } from '../../src/ingest/normalize.js';
import { SqliteIngestWriter } from '../../src/ingest/writer-sqlite.js';

const NOW = Date.UTC(2026, 10, 1, 12);
const USER = '00000000-0000-4000-8000-000000000001';

function bucket(model: string, tokens: bigint): NormalizedBucket {
  return { hourStart: Date.UTC(2026, 10, 1, 10), source: 'codex', model, projectKey: '', projectRef: null, input: tokens, cached: 0n, output: 0n, reasoning: 0n, total: tokens, billable: tokens };
}

describe('SQLite group commit', () => {
  let db: SqliteDb;
  beforeEach(async () => {
    db = openSqlite(':memory:');
    await migrateToLatest(db);
    await db.kysely.insertInto('users').values({ id: USER, email: null, password_hash: null, display_name: null, avatar_url: null, external_id: null, created_at: NOW, updated_at: NOW }).execute();
    for (const id of ['a', 'b', 'c']) {
      await db.kysely.insertInto('devices').values({ id, user_id: USER, name: id, platform: 'test', created_at: NOW, last_seen_at: null, last_sync_at: null, revoked_at: null }).execute();
    }
  });
  afterEach(async () => {
    await db.close();
  });

  it('stores the uploads of one turn together, each all-or-nothing', async () => {
    // A cost function that fails for one model stands in for any failure inside an upload's writes.
    const writer = new SqliteIngestWriter(db, (_source, model) => {
      if (model === 'boom') throw new Error('pricing failed');
      return 1n;
    });
    const upload = (deviceId: string, buckets: NormalizedBucket[]) => writer.apply({ userId: USER, deviceId, now: NOW, buckets, subscriptions: undefined });
    const results = await Promise.allSettled([
      upload('a', [bucket('gpt-5', 10n)]),
      upload('b', [bucket('gpt-5', 100n), bucket('boom', 1n)]),
      upload('c', [bucket('gpt-5', 1000n)]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('pricing failed'));

    const buckets = await db.kysely.selectFrom('usage_buckets').select(['device_id', 'total']).orderBy('device_id').execute();
    expect(buckets).toEqual([
      { device_id: 'a', total: 10n },
      { device_id: 'c', total: 1000n },
    ]);
    const rollup = await db.kysely.selectFrom('usage_rollup').select(['model', 'total']).execute();
    expect(rollup).toEqual([{ model: 'gpt-5', total: 1010n }]);
    const daily = await db.kysely.selectFrom('usage_daily').select(['model', 'total', 'cost_micros']).execute();
    expect(daily).toEqual([{ model: 'gpt-5', total: 1010n, cost_micros: 1n }]);
    const events = await db.kysely.selectFrom('ingest_events').select('device_id').orderBy('device_id').execute();
    expect(events.map((e) => e.device_id)).toEqual(['a', 'c']);
    const synced = await db.kysely.selectFrom('devices').select(['id', 'last_sync_at']).orderBy('id').execute();
    expect(synced).toEqual([
      { id: 'a', last_sync_at: BigInt(NOW) },
      { id: 'b', last_sync_at: null },
      { id: 'c', last_sync_at: BigInt(NOW) },
    ]);
  });
});
