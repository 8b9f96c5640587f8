/**
 * Rate limits kept in PostgreSQL: the same token buckets as process memory, a turn's takes in one
 * statement (the same key asked several times in one turn takes one token each), refilled by the
 * clock, shared by two limiters (two instances) on one database. PostgreSQL only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { PostgresDb } from '../../src/db/connect.js';
import { postgresLimiters } from '../../src/process/limits-postgres.js';
import { createLogger } from '../../src/logger.js';
import { openTestDb, T0, testConfig, testDatabaseUrl } from '../helpers/app.js';

describe.skipIf(!testDatabaseUrl)('rate limits in PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    await drop?.();
  });

  it('take a token a request, from one bucket for every instance, refilled by the clock', async () => {
    const opened = await openTestDb();
    drop = opened.drop;
    close = () => opened.db.close();
    const db = opened.db as PostgresDb;
    await migrateToLatest(db);
    const clock = new ManualClock(T0);
    const limits = testConfig({ INGEST_BURST: '3', INGEST_RATE_PER_MINUTE: '6' }).limits;
    const logger = createLogger('silent');
    const a = postgresLimiters(db, clock, limits, logger)('ingest');
    const b = postgresLimiters(db, clock, limits, logger)('ingest');

    // Four takes of d1 in one turn from two "instances" (two statements at once): three granted in all.
    const first = await Promise.all([a.take('d1'), b.take('d1'), a.take('d1'), b.take('d1'), a.take('d2')]);
    const d1 = first.slice(0, 4);
    expect(d1.filter((d) => d.allowed)).toHaveLength(3);
    expect(d1.find((d) => !d.allowed)?.retryAfterSeconds).toBe(10); // one token a 10 s at six a minute
    expect(first[4]?.allowed).toBe(true);
    expect((await b.take('d1')).allowed).toBe(false);
    clock.advance(10_000);
    expect((await a.take('d1')).allowed).toBe(true);
    expect((await b.take('d1')).allowed).toBe(false);
    clock.advance(60_000);
    const refilled = await Promise.all([1, 2, 3, 4].map(() => b.take('d1')));
    expect(refilled.map((d) => d.allowed)).toEqual([true, true, true, false]);
  });

  it('decide locally, never fail, when the database does not answer', async () => {
    const opened = await openTestDb();
    drop = opened.drop;
    const db = opened.db as PostgresDb;
    await migrateToLatest(db);
    await db.close();
    const limiter = postgresLimiters(
      db,
      new ManualClock(T0),
      testConfig({ INGEST_BURST: '1' }).limits,
      createLogger('silent'),
    )('ingest');
    expect((await limiter.take('d')).allowed).toBe(true);
    expect((await limiter.take('d')).allowed).toBe(false);
  });
});
