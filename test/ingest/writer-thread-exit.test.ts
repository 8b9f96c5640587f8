/**
 * The SQLite writer thread ending (terminated, or ended by a fault of its own) does not take ingest
 * down with it: a group waiting on the thread fails as a whole or was written whole, never in part,
 * and the next group is written by a new thread (src/ingest/sqlite/group-runner.ts). Runs on a
 * database file, the only kind with a writer thread, in both passes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { DAY_MS, HALF_HOUR_MS } from '../../src/domain/calendar.js';
import { DEFAULT_INGEST_BOUNDS } from '../../src/ingest/core/bounds.js';
import { resolveRates, type RateTable } from '../../src/ingest/core/day-rates.js';
import type { GroupWork } from '../../src/ingest/sqlite/group-write.js';
import { createGroupRunner, type GroupRunner } from '../../src/ingest/sqlite/group-runner.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';
import { storedBuckets } from '../helpers/stored-buckets.js';

const NOW = Date.UTC(2026, 10, 1, 12);
const USER = '00000000-0000-4000-8000-000000000001';
const RATE = 1_000_000n;

/** Five half-hours of day `day` (days before 2026-11-01) on `deviceId`, with 1, 2, 4, 8 and 16 tokens: 31 when stored whole. */
function work(deviceId: string, day: number): GroupWork {
  const start = Date.UTC(2026, 10, 1) - day * DAY_MS;
  const buckets = [1n, 2n, 4n, 8n, 16n].map((tokens, i) => seedBucket(tokens, { hourStart: start + i * HALF_HOUR_MS }));
  const rates: RateTable = new Map();
  resolveRates(buckets, () => ({ input: RATE, cached: RATE, output: RATE, reasoning: RATE }), rates);
  return {
    batches: [{ userId: USER, deviceId, now: NOW, buckets, subscriptions: undefined }],
    fingerprint: null,
    rates,
  };
}

/** The UTC epoch day of `day` days before 2026-11-01. */
const dayOf = (day: number): number => Date.UTC(2026, 10, 1) / DAY_MS - day;

/** The runner's writer thread, if it has one (a private field: nothing outside the runner may reach it). */
const threadOf = (runner: GroupRunner): Worker | undefined => (runner as unknown as { thread?: Worker }).thread;

describe('a SQLite writer thread that ends', () => {
  let dir: string;
  let db: SqliteDb;
  let runner: GroupRunner;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-thread-exit-'));
    db = openSqlite(path.join(dir, 'tokentally.db'), 5000);
    await migrateToLatest(db);
    await seedUser(db, USER, NOW);
    for (const device of ['a', 'b', 'c']) await seedDevice(db, device, USER, NOW);
    runner = createGroupRunner(db, DEFAULT_INGEST_BOUNDS);
  });
  afterEach(async () => {
    await runner.close();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Each device's stored tokens per day: 31 for a group stored whole. */
  async function storedDays(): Promise<Record<string, bigint>> {
    const days: Record<string, bigint> = {};
    for (const b of await storedBuckets(db.kysely)) {
      if (b.deviceId === null) continue;
      const key = `${b.deviceId}:${Math.floor(b.hourStart / DAY_MS)}`;
      days[key] = (days[key] ?? 0n) + b.total;
    }
    return days;
  }

  it('is replaced by a new thread for the next group', async () => {
    expect(await runner.run(work('a', 1))).toMatchObject({ kind: 'written' });
    const first = threadOf(runner);
    expect(first).toBeDefined();
    await first?.terminate();

    expect(await runner.run(work('b', 2))).toMatchObject({ kind: 'written' });
    expect(threadOf(runner)).toBeDefined();
    expect(threadOf(runner)).not.toBe(first);
    expect(Object.values(await storedDays())).toEqual([31n, 31n]);
  }, 20_000);

  it('fails or writes whole the group it was given when it ended, and the next group is written', async () => {
    await runner.run(work('a', 1)); // the thread is running
    const thread = threadOf(runner);
    const inFlight = runner.run(work('b', 2)).then(
      (reply) => reply.kind,
      (error: unknown) => (error as Error).message,
    );
    await thread?.terminate();
    const ended = await inFlight;
    // Written if the thread answered before it ended; otherwise failed with the reason. A failed
    // group may still have committed (the thread ended between its COMMIT and its answer), as after
    // any crash: stored whole or not at all, which a client's retry of the same upload repairs.
    expect(ended).toMatch(/^written$|ingest writer thread ended/);

    expect(await runner.run(work('c', 3))).toMatchObject({ kind: 'written' });
    const days = await storedDays();
    for (const total of Object.values(days)) expect(total).toBe(31n);
    expect(Object.keys(days)).toEqual(expect.arrayContaining(['a:' + dayOf(1), 'c:' + dayOf(3)]));
    if (ended === 'written') expect(Object.keys(days)).toContain('b:' + dayOf(2));
  }, 20_000);
});
