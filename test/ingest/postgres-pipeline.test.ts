/**
 * The PostgreSQL writer pipelines each group into two round trips (postgres/writer.ts): the group's
 * read is sent right behind BEGIN and the users' locks, and COMMIT right behind the writes. These
 * tests hold it to that count, and to what makes it safe: the read's snapshot is taken after the
 * locks are held (so two processes writing one user never lose each other's read-model changes),
 * and every user id is locked, however it must be quoted. (A group whose pipelined write fails is
 * rolled back whole, its uploads then written one by one: group-commit.test.ts.)
 */
import type { Bucket } from '../../src/domain/bucket.js';
import type { PoolClient } from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PostgresDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { beginLockingUsers } from '../../src/db/queries/ingest-postgres.js';
import { userIngestLockKey } from '../../src/db/dialect.js';
import { dayTotalsOf } from '../../src/domain/day-slots.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import type { IngestWriter } from '../../src/ingest/types.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { engine, openTestDb } from '../helpers/app.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';
import { storedBuckets } from '../helpers/stored-buckets.js';

const NOW = Date.UTC(2026, 10, 1, 12);
const USER = '00000000-0000-4000-8000-000000000001';
const RATES: TokenRates = { input: 1_000_000n, cached: 1_000_000n, output: 1_000_000n, reasoning: 1_000_000n };
const BOUNDS = { maxTokensPerUserDay: 2n ** 62n, maxBucketsPerHalfHour: 200, maxStoredBuckets: 5_000_000 };

const bucket = (tokens: bigint, hour = 10, model = 'gpt-5'): Bucket =>
  seedBucket(tokens, { hourStart: Date.UTC(2026, 10, 1, hour), model });

/**
 * Counts the round trips of every client the pool hands out from now on: a query sent while none
 * of that client's is unanswered starts one; a query sent behind an unanswered one rides along.
 */
function countRoundTrips(db: PostgresDb): { trips: number; sent: string[] } {
  const seen = { trips: 0, sent: [] as string[] };
  const wrapped = new WeakSet<PoolClient>();
  const connect = db.pool.connect.bind(db.pool) as () => Promise<PoolClient>;
  (db.pool as { connect: () => Promise<PoolClient> }).connect = async () => {
    const client = await connect();
    if (wrapped.has(client)) return client;
    wrapped.add(client);
    type Query = (config: unknown, ...rest: unknown[]) => Promise<unknown>;
    const query = client.query.bind(client) as Query;
    let unanswered = 0;
    (client as { query: Query }).query = (config, ...rest) => {
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      if (unanswered === 0) seen.trips += 1;
      seen.sent.push(`${unanswered === 0 ? 'trip' : 'behind'}: ${text.trim().slice(0, 24)}`);
      unanswered += 1;
      return query(config, ...rest).finally(() => {
        unanswered -= 1;
      });
    };
    return client;
  };
  return seen;
}

describe.skipIf(engine !== 'postgres')('the PostgreSQL writer pipelines a group', () => {
  let db: PostgresDb;
  let drop: () => Promise<void>;
  const writers: IngestWriter[] = [];
  const writer = () => {
    const made = createIngestWriter(db, () => RATES, BOUNDS);
    writers.push(made);
    return made;
  };
  beforeEach(async () => {
    const opened = await openTestDb();
    if (opened.db.dialect !== 'postgres') throw new Error('expected a PostgreSQL test database');
    ({ db, drop } = { db: opened.db, drop: opened.drop });
    await migrateToLatest(db);
    await seedUser(db, USER, NOW);
    for (const id of ['a', 'b']) await seedDevice(db, id, USER, NOW);
  });
  afterEach(async () => {
    for (const w of writers.splice(0)) await w.close();
    await db.close();
    await drop();
  });

  it('in two round trips: the read behind BEGIN and the locks, COMMIT behind the writes', async () => {
    const w = writer();
    const seen = countRoundTrips(db);
    const upload = (deviceId: string, tokens: bigint) =>
      w.apply({ userId: USER, deviceId, now: NOW, buckets: [bucket(tokens)], subscriptions: undefined });
    expect((await Promise.all([upload('a', 10n), upload('b', 20n)])).map((r) => r.inserted)).toEqual([1, 1]);
    expect(seen.sent).toEqual([
      expect.stringMatching(/^trip: BEGIN; SELECT pg_advis/),
      expect.stringMatching(/^behind: WITH n AS MATERIALIZED/),
      expect.stringMatching(/^trip: /),
      'behind: COMMIT',
    ]);
    expect(seen.trips).toBe(2);
    const days = await db.kysely.selectFrom('usage_days').select('counts').execute();
    expect(days.map((d) => dayTotalsOf(d.counts).total)).toEqual([30n]);
  });

  it("reads each user's stored rows only once their lock is held, so two processes lose nothing of each other's", async () => {
    // Two writers stand for two server processes on one database: nothing in either orders the
    // other's groups, only the users' locks do, and each group reads, then rewrites, the user's
    // packed day and daily rows. Had a read's snapshot been taken before the lock was granted, a
    // group would rewrite those rows from sums missing the other's last group.
    const [first, second] = [writer(), writer()];
    const rounds = 24;
    await Promise.all(
      [first, second].flatMap((w, i) =>
        Array.from({ length: rounds }, (_, round) =>
          w.apply({
            userId: USER,
            deviceId: i === 0 ? 'a' : 'b',
            now: NOW + round,
            // Each round adds the next hour's bucket: every group changes the day's sums.
            buckets: Array.from({ length: round + 1 }, (_, h) => bucket(BigInt(1 + h), h)),
            subscriptions: undefined,
          }),
        ),
      ),
    );
    const raw = (await storedBuckets(db.kysely)).reduce((sum, b) => sum + b.total, 0n);
    const daily = await db.kysely
      .selectFrom('usage_daily')
      .select((eb) => eb.fn.sum<bigint>('total').as('total'))
      .executeTakeFirstOrThrow();
    const days = await db.kysely.selectFrom('usage_days').select('counts').execute();
    const packed = days.reduce((sum, d) => sum + dayTotalsOf(d.counts).total, 0n);
    // Each device's last upload holds hours 0–23 with 1..24 tokens.
    const expected = 2n * BigInt((rounds * (rounds + 1)) / 2);
    expect(raw).toBe(expected);
    expect(BigInt(daily.total)).toBe(expected);
    expect(packed).toBe(expected);
  });

  it('locks a user whose id must be quoted, until the transaction ends', async () => {
    const odd = "o'brien\\ \u00e9";
    const client = await db.pool.connect();
    const other = await db.pool.connect();
    const tryLock = async () =>
      (
        await other.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS got', [
          userIngestLockKey(odd),
        ])
      ).rows[0]?.got;
    try {
      expect(await beginLockingUsers(client, [odd, USER], false)).toBeNull();
      expect(await tryLock()).toBe(false);
      await client.query('ROLLBACK');
      expect(await tryLock()).toBe(true);
    } finally {
      client.release();
      other.release();
    }
  });
});
