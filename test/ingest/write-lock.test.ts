/**
 * The SQLite writers when another connection on the same file (another server process) holds the
 * database's write lock: an upload and a Kysely write wait their turn without blocking the event
 * loop, fail with 503 past the busy timeout with nothing stored, and Kysely transactions take the
 * lock when they begin. Uploads are written on the ingest writer thread (a database file), which
 * leaves the app's write transactions their turn while uploads keep coming.
 * Engine-specific: runs on a SQLite file in both passes.
 */
import type { Bucket } from '../../src/domain/bucket.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { inTransaction } from '../../src/db/transaction.js';
import { createApp } from '../../src/app.js';
import { DatabaseBusyError } from '../../src/db/sqlite-busy.js';
import { ManualClock } from '../../src/clock.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import type { IngestWriter } from '../../src/ingest/types.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { capturingLogger, testConfig } from '../helpers/app.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';
import { storedBuckets } from '../helpers/stored-buckets.js';

const NOW = Date.UTC(2026, 10, 1, 12);
const USER = '00000000-0000-4000-8000-000000000001';
const RATES: TokenRates = { input: 1_000_000n, cached: 1_000_000n, output: 1_000_000n, reasoning: 1_000_000n };

const bucket = (tokens: bigint): Bucket => seedBucket(tokens);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('SQLite writes beside another connection', () => {
  let dir: string;
  let file: string;
  let db: SqliteDb;
  let other: BetterSqlite3.Database;
  let writer: IngestWriter | undefined;

  const open = async (busyTimeoutMs: number) => {
    db = openSqlite(file, busyTimeoutMs);
    await migrateToLatest(db);
    await seedUser(db, USER, NOW);
    await seedDevice(db, 'a', USER, NOW);
    writer = createIngestWriter(db, () => RATES);
    return writer;
  };
  const stored = async () => (await storedBuckets(db.kysely)).map((b) => ({ total: b.total }));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-lock-'));
    file = path.join(dir, 'tokentally.db');
  });
  afterEach(async () => {
    other?.close();
    await writer?.close();
    writer = undefined;
    await db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an upload waits for the lock without blocking the event loop, then is stored', async () => {
    const writer = await open(5000);
    other = new BetterSqlite3(file);
    other.exec('BEGIN IMMEDIATE');
    let settled = false;
    const upload = writer
      .apply({ userId: USER, deviceId: 'a', now: NOW, buckets: [bucket(7n)], subscriptions: undefined })
      .finally(() => (settled = true));

    const started = performance.now();
    await sleep(50);
    // Had the writer slept in SQLite's busy handler, this timer would have fired seconds late.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(settled).toBe(false);
    expect(await stored()).toEqual([]); // a read is not blocked by the other writer

    other.exec('COMMIT');
    expect(await upload).toMatchObject({ inserted: 1, skipped: 0 });
    expect(await stored()).toEqual([{ total: 7n }]);
  });

  it('past the busy timeout the upload fails with 503 and nothing is stored; the next one is stored', async () => {
    const writer = await open(100);
    other = new BetterSqlite3(file);
    other.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const failed = await writer
      .apply({ userId: USER, deviceId: 'a', now: NOW, buckets: [bucket(7n)], subscriptions: undefined })
      .catch((error: unknown) => error);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    expect(failed).toBeInstanceOf(DatabaseBusyError);
    other.exec('ROLLBACK');
    expect(await stored()).toEqual([]);
    expect(await db.kysely.selectFrom('ingest_events').select('id').execute()).toEqual([]);

    expect(
      await writer.apply({ userId: USER, deviceId: 'a', now: NOW, buckets: [bucket(9n)], subscriptions: undefined }),
    ).toMatchObject({ inserted: 1, skipped: 0 });
    expect(await stored()).toEqual([{ total: 9n }]);
  });

  it('a Kysely write waits for the lock without blocking the event loop, and answers 503 past the timeout', async () => {
    await open(1000);
    other = new BetterSqlite3(file);
    other.exec('BEGIN IMMEDIATE');
    let settled = false;
    const rename = (name: string) =>
      inTransaction(db, (tx) => tx.updateTable('devices').set({ name }).where('id', '=', 'a').execute());
    const waiting = rename('after the wait').finally(() => (settled = true));
    const started = performance.now();
    await sleep(50);
    // Had the write slept inside SQLite, this timer would have fired only after the busy timeout.
    expect(performance.now() - started).toBeLessThan(500);
    expect(settled).toBe(false);
    other.exec('COMMIT');
    await waiting;
    expect(await db.kysely.selectFrom('devices').select('name').execute()).toEqual([{ name: 'after the wait' }]);

    other.exec('BEGIN IMMEDIATE');
    const failed = await rename('never').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(DatabaseBusyError);
    other.exec('ROLLBACK');
    expect(await db.kysely.selectFrom('devices').select('name').execute()).toEqual([{ name: 'after the wait' }]);
  });

  /**
   * `uploaders` loops each uploading one of device a's half-hours again and again; `until(n)` waits
   * for n uploads answered, `stop(more)` ends the loops once `more` further ones are.
   */
  const keepUploading = (uploads: IngestWriter, uploaders: number) => {
    let stopping = false;
    const counter = { stored: 0 };
    const loop = async (hour: number) => {
      for (let n = 1; !stopping; n += 1) {
        const buckets = [{ ...bucket(BigInt(n)), hourStart: Date.UTC(2026, 10, 1, hour) }];
        await uploads.apply({ userId: USER, deviceId: 'a', now: NOW, buckets, subscriptions: undefined });
        counter.stored += 1;
      }
    };
    const loops = Array.from({ length: uploaders }, (_, i) => loop(i));
    return {
      async until(stored: number) {
        while (counter.stored < stored) await sleep(1);
      },
      async stop(more: number) {
        await this.until(counter.stored + more); // the uploads go on after what was measured
        stopping = true;
        await Promise.all(loops);
      },
    };
  };

  it("an app write transaction gets its turn between the writer thread's transactions while uploads keep coming", async () => {
    const uploading = keepUploading(await open(2000), 8);
    await uploading.until(20);
    const started = performance.now();
    await inTransaction(db, (tx) => tx.updateTable('devices').set({ name: 'renamed' }).where('id', '=', 'a').execute());
    // Had the uploads kept the lock while any was in flight, this would wait for them to stop (never).
    expect(performance.now() - started).toBeLessThan(1000);
    await uploading.stop(20);
    expect(await db.kysely.selectFrom('devices').select('name').execute()).toEqual([{ name: 'renamed' }]);
  });

  it('an app write outside a transaction gets its turn while uploads keep the writer thread busy', async () => {
    // More uploads in flight than the thread writes in one group: it always has one waiting.
    const uploading = keepUploading(await open(2000), 24);
    await uploading.until(50);
    for (let i = 0; i < 10; i += 1) {
      const started = performance.now();
      await db.kysely
        .updateTable('devices')
        .set({ name: `renamed ${i}` })
        .where('id', '=', 'a')
        .execute();
      // Had the thread's transactions left no gap, this would retry until the busy timeout (2 s) and fail.
      expect(performance.now() - started).toBeLessThan(1000);
    }
    await uploading.stop(20);
    expect(await db.kysely.selectFrom('devices').select('name').execute()).toEqual([{ name: 'renamed 9' }]);
  });

  it('a Kysely write transaction holds the write lock from its BEGIN, before its first write', async () => {
    await open(5000);
    other = new BetterSqlite3(file);
    other.pragma('busy_timeout = 0');
    await inTransaction(db, async (tx) => {
      await tx.selectFrom('devices').select('id').execute();
      // A deferred BEGIN would hold no write lock yet: the other connection could write and commit
      // here, and this transaction's first write would then fail with SQLITE_BUSY_SNAPSHOT.
      expect(() => other.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
      await tx.updateTable('devices').set({ name: 'renamed' }).where('id', '=', 'a').execute();
    });
    other.exec('BEGIN IMMEDIATE'); // free again after the COMMIT
    other.exec('ROLLBACK');
    expect(await db.kysely.selectFrom('devices').select('name').execute()).toEqual([{ name: 'renamed' }]);
  });

  it('over HTTP, a write that never gets the lock is a 503 problem with Retry-After, and changes nothing', async () => {
    await open(100);
    const built = await createApp({
      config: testConfig(),
      db,
      clock: new ManualClock(NOW),
      logger: capturingLogger([]),
    });
    try {
      other = new BetterSqlite3(file);
      other.exec('BEGIN IMMEDIATE');
      const res = await built.app.inject({
        method: 'POST',
        url: '/auth/v1/signup',
        payload: { email: 'late@example.com', password: 'a long password' },
      });
      other.exec('ROLLBACK');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.json()).toMatchObject({
        status: 503,
        code: 'unavailable',
        detail: 'The database is busy with other writes; try again shortly.',
      });
      expect(
        await db.kysely.selectFrom('users').select('email').where('email', '=', 'late@example.com').execute(),
      ).toEqual([]);
    } finally {
      await built.close();
    }
  });
});
