/**
 * Both writers' group commit (on the test pass's engine): uploads queued in one event-loop turn
 * share a transaction (SQLite: each in its own savepoint; PostgreSQL: a group that fails is
 * written again upload by upload). One that fails leaves nothing behind and fails alone; the
 * others are stored and answered. Read models are moved once per user and group, and come out
 * exactly as if the uploads had been written one by one; so does each user's count of stored raw
 * buckets, and a group's uploads count against the stored-bucket bound together. On the SQLite pass, twice: an in-memory
 * database (written on the app's thread) and a database file (written on the ingest writer thread,
 * where every answer and error crosses between threads).
 */
import type { Bucket } from '../../src/domain/bucket.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { dayTotalsOf } from '../../src/domain/day-slots.js';
import { Conflict, Unauthenticated } from '../../src/domain/errors.js';
import type { NormalizedSubscription } from '../../src/ingest/core/subscriptions.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import type { IngestWriter } from '../../src/ingest/types.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { claimCostsFingerprint } from '../../src/db/queries/daily-costs.js';
import type { CostRates, PriceSource } from '../../src/ingest/core/day-rates.js';
import { engine, openSqliteFileDb, openTestDb } from '../helpers/app.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';
import { storedBuckets } from '../helpers/stored-buckets.js';

const NOW = Date.UTC(2026, 10, 1, 12);
const USERS = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
/** 10^6 femto-dollars (a thousandth of a micro-dollar) per token of every kind: n tokens cost ⌊n / 1000⌋ µ$. */
const RATES: TokenRates = { input: 1_000_000n, cached: 1_000_000n, output: 1_000_000n, reasoning: 1_000_000n };

function bucket(model: string, tokens: bigint, project = '', hour = 10): Bucket {
  return seedBucket(tokens, {
    hourStart: Date.UTC(2026, 10, 1, hour),
    model,
    projectKey: project,
    projectRef: project || null,
  });
}

const ratesOf = (model: string): TokenRates => {
  if (model === 'boom') throw new Error('pricing failed');
  return RATES;
};

const WHERE = engine === 'sqlite' ? ['in memory', 'in a file'] : ['on PostgreSQL'];

describe.each(WHERE)('ingest group commit (%s)', (where) => {
  let db: Db;
  let drop: () => Promise<void>;
  let writer: IngestWriter;
  beforeEach(async () => {
    ({ db, drop } = where === 'in a file' ? openSqliteFileDb() : await openTestDb());
    await migrateToLatest(db);
    for (const user of USERS) await seedUser(db, user, NOW);
    for (const [id, user] of [
      ['a', USERS[0]],
      ['b', USERS[0]],
      ['c', USERS[0]],
      ['d', USERS[1]],
    ] as const) {
      await seedDevice(db, id, user as string, NOW);
    }
    writer = createIngestWriter(db, ratesOf, {
      maxTokensPerUserDay: 2n ** 62n,
      maxBucketsPerHalfHour: 200,
      maxStoredBuckets: 5_000_000,
    }); // sums past 2^53 on one day
  });
  afterEach(async () => {
    await writer.close();
    await db.close();
    await drop();
  });

  /** Every raw bucket with its device's id (null for a row whose device is gone), smallest total first. */
  const storedTotals = async () =>
    (await storedBuckets(db.kysely))
      .map((b) => ({ device_id: b.deviceId, total: b.total }))
      .sort((a, b) => (a.total < b.total ? -1 : a.total > b.total ? 1 : 0));

  const upload = (
    deviceId: string,
    buckets: Bucket[],
    user = USERS[0] as string,
    subscriptions?: NormalizedSubscription[],
  ) => writer.apply({ userId: user, deviceId, now: NOW, buckets, subscriptions });

  it('stores the uploads of one turn together, each all-or-nothing', async () => {
    const results = await Promise.allSettled([
      upload('a', [bucket('gpt-5', 10n)]),
      upload('b', [bucket('gpt-5', 100n), bucket('boom', 1n)]), // its prices cannot be resolved
      // Its subscription row breaks a NOT NULL constraint after its device was touched and its
      // buckets were written, so the savepoint has to take those back.
      upload('d', [bucket('gpt-5', 5n)], USERS[1], [
        { tool: 'codex', provider: null, product: null, planType: null, rateLimitTier: null, details: null as never },
      ]),
      upload('c', [bucket('gpt-5', 1000n)]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('pricing failed'));
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/not.null/i);

    expect(await storedTotals()).toEqual([
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
      { id: 'd', last_sync_at: null },
    ]);
  });

  it('refuses an upload whose device is gone (its account deleted meanwhile) as unauthenticated, storing nothing of it', async () => {
    const results = await Promise.allSettled([
      upload('a', [bucket('gpt-5', 10n)]),
      upload('ghost', [bucket('gpt-5', 5n)]),
      upload('c', [bucket('gpt-5', 1000n)]),
      upload('phantom', []), // no buckets: refused all the same, no upload record left
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(Unauthenticated);
    expect((results[3] as PromiseRejectedResult).reason).toBeInstanceOf(Unauthenticated);
    expect(await storedTotals()).toEqual([
      { device_id: 'a', total: 10n },
      { device_id: 'c', total: 1000n },
    ]);
    const events = await db.kysely.selectFrom('ingest_events').select('device_id').orderBy('device_id').execute();
    expect(events.map((e) => e.device_id)).toEqual(['a', 'c']);
    const rollup = await db.kysely.selectFrom('usage_rollup').select(['model', 'total']).execute();
    expect(rollup).toEqual([{ model: 'gpt-5', total: 1010n }]);
  });

  it("moves each user's read models once per group, exactly as uploads one by one would", async () => {
    const big = 2n ** 60n; // sums past 2^53 stay exact
    const answers = await Promise.all([
      upload('a', [bucket('gpt-5', big, 'acme/api'), bucket('claude-sonnet-4', 3n, '', 11)]),
      upload('b', [bucket('gpt-5', 7n, 'acme/api'), bucket('gpt-5', 1n, 'acme/web')]),
      upload('d', [bucket('gpt-5', 5n)], USERS[1]),
      upload('a', [bucket('gpt-5', big + 1n, 'acme/api')]), // replaces a's first bucket in the same group; a's other group stays
    ]);
    expect(answers.map((a) => a.inserted)).toEqual([2, 2, 1, 1]);
    const rollup = await db.kysely
      .selectFrom('usage_rollup')
      .select(['user_id', 'hour_start', 'model', 'total'])
      .orderBy(['user_id', 'hour_start', 'model'])
      .execute();
    expect(rollup).toEqual([
      { user_id: USERS[0], hour_start: BigInt(Date.UTC(2026, 10, 1, 10)), model: 'gpt-5', total: big + 1n + 8n },
      { user_id: USERS[0], hour_start: BigInt(Date.UTC(2026, 10, 1, 11)), model: 'claude-sonnet-4', total: 3n },
      { user_id: USERS[1], hour_start: BigInt(Date.UTC(2026, 10, 1, 10)), model: 'gpt-5', total: 5n },
    ]);
    const daily = await db.kysely
      .selectFrom('usage_daily')
      .select(['user_id', 'model', 'total', 'cost_micros'])
      .orderBy(['user_id', 'model'])
      .execute();
    expect(daily).toEqual([
      { user_id: USERS[0], model: 'claude-sonnet-4', total: 3n, cost_micros: 0n },
      { user_id: USERS[0], model: 'gpt-5', total: big + 9n, cost_micros: (big + 9n) / 1000n },
      { user_id: USERS[1], model: 'gpt-5', total: 5n, cost_micros: 0n },
    ]);
    const projects = await db.kysely
      .selectFrom('project_usage')
      .select(['user_id', 'project_key', 'project_ref', 'total'])
      .orderBy(['project_key'])
      .execute();
    expect(projects).toEqual([
      { user_id: USERS[0], project_key: 'acme/api', project_ref: 'acme/api', total: big + 8n },
      { user_id: USERS[0], project_key: 'acme/web', project_ref: 'acme/web', total: 1n },
    ]);
    const totals = await db.kysely
      .selectFrom('leaderboard_user_totals')
      .select(['user_id', 'gpt', 'claude', 'other'])
      .orderBy('user_id')
      .execute();
    expect(totals).toEqual([
      { user_id: USERS[0], gpt: big + 9n, claude: 3n, other: 0n },
      { user_id: USERS[1], gpt: 5n, claude: 0n, other: 0n },
    ]);
    // The packed day of user 0 holds the day's sum over every model.
    const days = await db.kysely
      .selectFrom('usage_days')
      .select('counts')
      .where('user_id', '=', USERS[0] as string)
      .execute();
    expect(days.map((d) => dayTotalsOf(d.counts).total)).toEqual([big + 12n]);
  });
  it('prices a group again with the data the stored costs are priced by, when another process switched it', async () => {
    // This process last knew the cheap data; the database records that the dear data priced the stored costs.
    const dear: TokenRates = { input: 1_000_000_000n, cached: 0n, output: 0n, reasoning: 0n }; // 1 µ$ a token
    const prices: PriceSource<CostRates> = {
      serving: () => ({ fingerprint: 'cheap', ratesOf }),
      of: async (fingerprint) => {
        if (fingerprint !== 'dear') throw new Error(`unexpected data ${fingerprint}`);
        return { fingerprint, ratesOf: () => dear };
      },
    };
    await claimCostsFingerprint(db, 'dear', NOW);
    await writer.close();
    writer = createIngestWriter(db, prices);
    const answers = await Promise.all([upload('a', [bucket('gpt-5', 10_000n)]), upload('b', [bucket('gpt-5', 5n)])]);
    expect(answers.map((a) => a.inserted)).toEqual([1, 1]);
    const daily = await db.kysely.selectFrom('usage_daily').select(['total', 'cost_micros']).execute();
    expect(daily).toEqual([{ total: 10_005n, cost_micros: 10_005n }]); // cheap: 10 µ$
  });

  it("counts a group's uploads against the stored-bucket bound together, and moves each user's count once", async () => {
    await writer.close();
    writer = createIngestWriter(db, ratesOf, {
      maxTokensPerUserDay: 2n ** 62n,
      maxBucketsPerHalfHour: 200,
      maxStoredBuckets: 5,
    });
    const counts = async () =>
      new Map(
        (await db.kysely.selectFrom('user_storage').selectAll().execute()).map((r) => [
          r.user_id,
          Number(r.stored_buckets),
        ]),
      );
    // One turn (devices distinct: a group holds one upload per device): two buckets each from two
    // devices of one user and from another user's device; one that cannot be priced counts nothing.
    const first = await Promise.allSettled([
      upload('a', [bucket('x', 1n), bucket('x', 2n, 'p')]),
      upload('b', [bucket('y', 3n), bucket('z', 4n)]),
      upload('c', [bucket('v', 5n), bucket('boom', 1n)]),
      upload('d', [bucket('x', 7n), bucket('y', 8n)], USERS[1]),
    ]);
    expect(first.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(await counts()).toEqual(
      new Map([
        [USERS[0], 4],
        [USERS[1], 2],
      ]),
    );
    // One turn: a removes a project variant (−1), then c adds two (+2): 5, the bound; b's one more
    // would fit the count stored before the group but not with the group's earlier uploads: refused.
    const second = await Promise.allSettled([
      upload('a', [bucket('x', 1n)]),
      upload('c', [bucket('v', 5n), bucket('w', 6n)]),
      upload('b', [bucket('u', 9n)]),
    ]);
    expect(second.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((second[2] as PromiseRejectedResult).reason).toBeInstanceOf(Conflict);
    // A replacing upload still goes through at the bound.
    await expect(upload('b', [bucket('y', 30n), bucket('z', 40n)])).resolves.toMatchObject({ inserted: 2 });
    const held = new Map<string, number>();
    for (const b of await storedBuckets(db.kysely)) {
      const owner = b.deviceId === 'd' ? (USERS[1] as string) : (USERS[0] as string);
      held.set(owner, (held.get(owner) ?? 0) + 1);
    }
    expect(held).toEqual(
      new Map([
        [USERS[0], 5],
        [USERS[1], 2],
      ]),
    );
    expect(await counts()).toEqual(held);
  });
});
