/**
 * Stored costs follow the price data in use, repriced in the background (both engines): a server
 * whose data differs from the data that priced the stored costs answers at once, and until the
 * repricing ends every answer — stored costs and what is priced at request time — is exactly the
 * answer of the previous prices; when it ends, exactly the answer of the new ones, in every server
 * over the database, uploads made meanwhile included. A second start, a restart and a process that
 * stopped without a word mid-repricing end the same. The repricing is held between its steps by a
 * hook, so each moment is reached deterministically.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type TokentallyApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { claimCostsFingerprint } from '../../src/db/queries/daily-costs.js';
import { savePriceSnapshot } from '../../src/db/queries/price-snapshots.js';
import { DAY_MS, epochDayOf } from '../../src/domain/calendar.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import { bundledPriceData } from '../../src/pricing/price-data.js';
import {
  BUNDLED_PRICES_EFFECTIVE_FROM,
  createPriceData,
  createPriceService,
  priceDataReady,
} from '../../src/pricing/price-service.js';
import { exportChunks, parseExportRange } from '../../src/services/export.js';
import { PriceBook, snapshotOf } from '../../src/services/price-book.js';
import type { RepricingHooks } from '../../src/services/repricing.js';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from '../helpers/actors.js';
import { capturingLogger, createTestApp, engine, openTestDb, T0, type TestApp } from '../helpers/app.js';
import { dearerData } from '../helpers/price-data.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';
import { blocksAndTheirDays } from '../helpers/stored-usage.js';
import { formTeam } from '../helpers/team-history.js';
import { expectTeamModelInStep } from '../helpers/team-usage-model.js';

const BUCKETS: BucketInput[] = [
  {
    hour_start: '2026-10-29T20:00:00Z',
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 300_000,
    output_tokens: 2_000,
    total_tokens: 302_000,
  },
  {
    hour_start: '2026-10-30T10:00:00Z',
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 1_000_000,
    cached_input_tokens: 200_000,
    output_tokens: 50_000,
    reasoning_output_tokens: 10_000,
    total_tokens: 1_050_000,
  },
  {
    hour_start: '2026-10-30T23:30:00Z',
    source: 'claude',
    model: 'claude-opus-4-1',
    input_tokens: 10_000,
    output_tokens: 2_000,
    total_tokens: 12_000,
  },
  {
    hour_start: '2026-10-31T00:00:00Z',
    source: 'gemini',
    model: 'gemini-2.5-pro',
    input_tokens: 300,
    output_tokens: 3,
    total_tokens: 303,
  },
  {
    hour_start: '2026-10-31T15:00:00Z',
    source: 'claude',
    model: 'claude-opus-4-1',
    input_tokens: 5_000,
    cached_input_tokens: 1_000,
    output_tokens: 700,
    total_tokens: 6_700,
  },
  {
    hour_start: '2026-11-01T03:00:00Z',
    source: 'opencode',
    model: 'mystery-model',
    input_tokens: 1_000,
    output_tokens: 100,
    total_tokens: 1_100,
  },
];
/** Uploaded while a repricing runs: changes rows of users repriced already and of users not yet. */
const DURING: BucketInput[] = [
  { hour_start: '2026-10-30T11:00:00Z', source: 'codex', model: 'gpt-5', input_tokens: 400_000, total_tokens: 400_000 },
  {
    hour_start: '2026-10-31T20:00:00Z',
    source: 'claude',
    model: 'claude-opus-4-1',
    input_tokens: 100,
    output_tokens: 9_000,
    total_tokens: 9_100,
  },
];
/** Uploaded after it ended, by a server that has not heard of the switch. */
const AFTER: BucketInput[] = [
  {
    hour_start: '2026-10-30T12:30:00Z',
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 123_456,
    output_tokens: 7_890,
    total_tokens: 131_346,
  },
];

const URLS = [
  // Whole UTC days from stored costs, partial UTC days at the edges priced at request time.
  '/functions/svc-usage-summary?from=2026-10-29&to=2026-11-01&tz=Asia/Tokyo',
  '/functions/svc-usage-summary?from=2026-10-30&to=2026-10-31',
  '/functions/svc-usage-daily?from=2026-10-29&to=2026-11-01&tz=America/New_York',
  '/functions/svc-usage-model-breakdown?from=2026-10-29&to=2026-11-01&tz=Asia/Tokyo',
  '/functions/svc-export?format=json',
];

/** Every answer with costs, as compared (the export without what names the user and the moment). */
async function answers(app: TokentallyApp['app'], user: TestUser): Promise<unknown[]> {
  return Promise.all(
    URLS.map(async (url) => {
      const res = await app.inject({ method: 'GET', url, headers: bearer(user.accessToken) });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      const body = JSON.parse(res.body) as Record<string, unknown>;
      return url.includes('export') ? { daily: body.daily, totals: body.totals } : body;
    }),
  );
}

async function health(app: TokentallyApp['app']): Promise<unknown> {
  const res = await app.inject({ method: 'GET', url: '/healthz' });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Holds a repricing before each of its steps (a batch, or the swap at the end) until let through. */
class Gate {
  private arrived = 0;
  private open = false;
  private readonly held: (() => void)[] = [];
  private readonly watchers: { step: number; resolve: () => void }[] = [];

  readonly hook = async (): Promise<void> => {
    this.arrived += 1;
    for (const w of this.watchers.filter((w) => w.step <= this.arrived)) w.resolve();
    if (!this.open) await new Promise<void>((resolve) => this.held.push(resolve));
  };

  /** Resolves once the repricing has come to step `n` (counted from 1). */
  reached(n: number): Promise<void> {
    if (this.arrived >= n) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ step: n, resolve }));
  }

  /** Lets the step held now go on (the next one is held again). */
  step(): void {
    this.held.shift()?.();
  }

  openAll(): void {
    this.open = true;
    for (const release of this.held.splice(0)) release();
  }
}

/** The process's own price data: the bundled data, or the dearer data below. */
const own = createPriceService();
let dearer: Awaited<ReturnType<typeof dearerData>>;

const useDearerPrices = () => own.replaceData(dearer, { effectiveFrom: '2026-11-01' });
const useBundledPrices = () =>
  own.replaceData(bundledPriceData().providers, { effectiveFrom: BUNDLED_PRICES_EFFECTIVE_FROM });

beforeAll(async () => {
  await priceDataReady();
  dearer = await dearerData();
});
afterAll(async () => {
  await useBundledPrices();
});

describe(`stored costs repriced in the background (${engine})`, () => {
  const closers: (() => Promise<void>)[] = [];
  const gates: Gate[] = [];
  afterEach(async () => {
    for (const gate of gates.splice(0)) gate.openAll();
    for (const close of closers.splice(0).reverse()) await close();
    await useBundledPrices();
  });

  async function testApp(): Promise<TestApp> {
    const t = await createTestApp();
    closers.push(t.close);
    return t;
  }

  /** Another server over `t`'s database (it closes the database; this one leaves it open). */
  async function serverOver(t: TestApp, repricing?: RepricingHooks): Promise<TestApp> {
    const logs: string[] = [];
    const built = await createApp({
      config: t.config,
      db: { ...t.db, close: async () => undefined },
      clock: t.clock,
      logger: capturingLogger(logs),
      hooks: { repricing },
    });
    closers.push(built.close);
    return { ...t, ...built, logs };
  }

  function heldGate(): { gate: Gate; hooks: RepricingHooks } {
    const gate = new Gate();
    gates.push(gate);
    return { gate, hooks: { usersPerBatch: 1, beforeBatch: gate.hook } };
  }

  interface Uploader {
    readonly user: TestUser;
    /** The user's device token. */
    readonly token: string;
  }

  /** Users with BUCKETS uploaded. */
  async function usersWithUsage(t: TestApp, n: number): Promise<Uploader[]> {
    const users: Uploader[] = [];
    for (let i = 0; i < n; i++) {
      const user = await signUp(t);
      const { token } = await issueDevice(t, user);
      expect((await ingest(t, token, BUCKETS)).statusCode).toBe(200);
      users.push({ user, token });
    }
    return users;
  }

  /** The answers of a fresh server over its own database, pricing with the process's data now, after each list of uploads. */
  async function reference(...uploads: BucketInput[][]): Promise<{ answers: unknown[][]; rows: unknown[] }> {
    const t = await testApp();
    const { user, token } = (await usersWithUsage(t, 1))[0] as Uploader;
    const all = [await answers(t.app, user)];
    for (const more of uploads) {
      expect((await ingest(t, token, more)).statusCode).toBe(200);
      all.push(await answers(t.app, user));
    }
    return { answers: all, rows: await storedRows(t, user) };
  }

  async function storedRows(t: TestApp, user: TestUser): Promise<unknown[]> {
    return t.db.kysely
      .selectFrom('usage_daily')
      .select(['day', 'source', 'model', 'input', 'cached_input', 'output', 'reasoning', 'cost_micros'])
      .where('user_id', '=', user.id)
      .orderBy('day')
      .orderBy('source')
      .orderBy('model')
      .execute();
  }

  it('answers at once, with the previous prices exactly until the repricing ends, then with the new ones everywhere', async () => {
    const old = await reference(DURING);
    const t = await testApp();
    const users = await usersWithUsage(t, 3);
    const [owner, ...others] = users.map((u) => u.user) as [TestUser, ...TestUser[]];
    await formTeam(t, owner, others, 'repriced');
    const teamCosts = async () =>
      (
        await t.db.kysely
          .selectFrom('team_usage_daily')
          .select('cost_micros')
          .orderBy(['day', 'source', 'model'])
          .execute()
      ).map((r) => BigInt(r.cost_micros));
    const teamCostsBefore = await teamCosts();
    expect(await health(t.app)).toMatchObject({ status: 'ok', pricing: { state: 'current' } });
    const kept = async () =>
      (await t.db.kysely.selectFrom('price_snapshots').select('fingerprint').orderBy('fingerprint').execute()).map(
        (r) => r.fingerprint,
      );
    const previous = await kept();
    expect(previous).toHaveLength(1);
    await savePriceSnapshot(
      t.db.kysely,
      { fingerprint: 'data of an older sync', source: 'genai-prices', effectiveFrom: '2026-10-01', data: '[]' },
      t.clock.now(),
    );

    await useDearerPrices();
    const fresh = await reference(DURING, AFTER);
    expect(fresh.answers[0]).not.toEqual(old.answers[0]); // the new data prices this usage differently

    // A server with the new data starts over the same database: it serves while the repricing is held.
    const { gate, hooks } = heldGate();
    const second = await serverOver(t, hooks);
    await gate.reached(1);
    expect(second.logs.join('')).toMatch(/repricing stored daily costs in the background/);
    for (const app of [t.app, second.app]) {
      expect(await health(app)).toMatchObject({
        status: 'ok',
        version: expect.any(String),
        pricing: { state: 'repricing', rows_done: 0 },
      });
      for (const { user } of users) expect(await answers(app, user)).toEqual(old.answers[0]);
    }

    // One user repriced (aside), then uploads to every user while the rest waits.
    gate.step();
    await gate.reached(2);
    expect(await health(second.app)).toMatchObject({ pricing: { state: 'repricing', rows_done: 6 } });
    for (const [i, { token }] of users.entries())
      expect((await ingest(i % 2 === 0 ? t : second, token, DURING)).statusCode).toBe(200);
    for (const app of [t.app, second.app])
      for (const { user } of users) expect(await answers(app, user)).toEqual(old.answers[1]);

    gate.openAll();
    await second.repricing.idle();
    expect(second.logs.join('')).toMatch(/repriced stored daily costs \(\d+ rows read, \d+ changed/);
    // The swap set the 16-day sums' costs with the days' (usage_blocks, migration 0027).
    const blocks = await blocksAndTheirDays(t.db.kysely);
    expect(blocks.stored.size).toBeGreaterThan(0);
    expect(blocks.stored).toEqual(blocks.fromDays);
    // ... and the team's stored costs with its members' (team_usage_daily, migration 0030).
    await expectTeamModelInStep(t.db.kysely, 'after the swap');
    expect(await teamCosts()).not.toEqual(teamCostsBefore);
    for (const app of [t.app, second.app]) {
      expect(await health(app)).toMatchObject({ status: 'ok', pricing: { state: 'current' } });
      for (const { user } of users) expect(await answers(app, user)).toEqual(fresh.answers[1]);
    }
    // The first server has not heard of the switch: its uploads are priced with the new data all the same.
    for (const { token } of users) expect((await ingest(t, token, AFTER)).statusCode).toBe(200);
    for (const app of [t.app, second.app])
      for (const { user } of users) expect(await answers(app, user)).toEqual(fresh.answers[2]);
    for (const { user } of users) expect(await storedRows(t, user)).toEqual(fresh.rows);
    // The database keeps the data of the stored costs and the previous data, no more.
    expect(await kept()).toEqual([...previous, own.fingerprint].sort());
  });

  it('ends the same after a second start, a restart and a process that stopped without a word mid-repricing', async () => {
    const old = await reference();
    const t = await testApp();
    const users = await usersWithUsage(t, 3);
    await useDearerPrices();
    const fresh = await reference();

    const { gate, hooks } = heldGate();
    const first = await serverOver(t, hooks);
    await gate.reached(1);
    gate.step();
    await gate.reached(2);

    // A second start while the first reprices: it leaves the repricing to the first and answers with the previous prices.
    const second = await serverOver(t);
    expect(await health(second.app)).toMatchObject({ pricing: { state: 'repricing', rows_done: 6 } });
    for (const { user } of users) expect(await answers(second.app, user)).toEqual(old.answers[0]);

    // The first stops mid-repricing and gives it back; a restart goes on from the last batch stored.
    const closing = first.close();
    gate.openAll();
    await closing;
    expect(await health(second.app)).toMatchObject({ pricing: { state: 'repricing', rows_done: 6 } });
    const { gate: again, hooks: againHooks } = heldGate();
    const restarted = await serverOver(t, againHooks);
    await again.reached(1);
    again.step();
    await again.reached(2);
    expect(await health(restarted.app)).toMatchObject({ pricing: { state: 'repricing', rows_done: 12 } });
    for (const { user } of users) expect(await answers(restarted.app, user)).toEqual(old.answers[0]);

    // The restarted process stops without a word (its lease stays): nobody else goes on until the lease runs out.
    await t.db.kysely
      .updateTable('repricing')
      .set({ holder: 'a process that stopped', lease_until: t.clock.now() + 60_000 })
      .execute();
    again.openAll();
    await restarted.repricing.idle();
    second.repricing.resume();
    await second.repricing.idle();
    expect(await health(second.app)).toMatchObject({ pricing: { state: 'repricing', rows_done: 12 } });
    for (const { user } of users) expect(await answers(second.app, user)).toEqual(old.answers[0]);
    t.clock.advance(60_001);
    second.repricing.resume();
    await second.repricing.idle();

    for (const app of [t.app, second.app, restarted.app]) {
      expect(await health(app)).toMatchObject({ pricing: { state: 'current' } });
      for (const { user } of users) expect(await answers(app, user)).toEqual(fresh.answers[0]);
    }
    for (const { user } of users) expect(await storedRows(t, user)).toEqual(fresh.rows);
    expect(await t.db.kysely.selectFrom('usage_daily_repriced').selectAll().execute()).toEqual([]);
  });

  it('keeps an export read across the end of a repricing on the prices it began with', async () => {
    const old = await reference();
    const t = await testApp();
    const { user } = (await usersWithUsage(t, 1))[0] as Uploader;
    await useDearerPrices();
    const { gate, hooks } = heldGate();
    const second = await serverOver(t, hooks);
    await gate.reached(1);

    // Read in pages of two rows; the repricing ends after the first page of daily rows.
    const chunks = exportChunks(t.db, {
      userId: user.id,
      range: parseExportRange(undefined, undefined),
      format: 'json',
      generatedAt: 0,
      pageSize: 2,
      prices: new PriceBook(t.db, own),
    });
    let text = '';
    while (!text.includes('"daily":[\n')) text += (await chunks.next()).value ?? '';
    gate.openAll();
    await second.repricing.idle();
    expect(await health(t.app)).toMatchObject({ pricing: { state: 'current' } });
    for await (const chunk of chunks) text += chunk;
    const body = JSON.parse(text) as Record<string, unknown>;
    expect({ daily: body.daily, totals: body.totals }).toEqual(old.answers[0]?.[4]);
  });

  it('reprices before serving only when the data that priced the stored costs is not kept, and leaves current costs alone', async () => {
    const t = await testApp();
    const { user } = (await usersWithUsage(t, 1))[0] as Uploader;
    const cost = async (app = t.app) =>
      (
        await app.inject({
          method: 'GET',
          url: '/functions/svc-usage-summary?from=2026-10-30&to=2026-10-30',
          headers: bearer(user.accessToken),
        })
      ).json().totals.total_cost_usd as string;
    const priced = await cost();

    // Priced by the data in use already: a start leaves them alone.
    const same = await serverOver(t);
    expect(same.logs.join('')).toMatch(/stored daily costs are priced by genai-prices@/);
    expect(same.logs.join('')).not.toMatch(/repric/);

    // Costs priced by data nobody kept (a database from before the data was kept, whose package
    // changed with the upgrade): nothing can price an answer with that data, so the start reprices first.
    await t.db.kysely.updateTable('usage_daily').set({ cost_micros: 7 }).execute();
    await t.db.kysely.updateTable('read_model_state').set({ value: 'data nobody kept' }).execute();
    const upgraded = await serverOver(t);
    expect(upgraded.logs.join('')).toMatch(
      /repriced stored daily costs \(6 rows read, 6 changed, \d+ ms\) before serving/,
    );
    expect(await health(upgraded.app)).toMatchObject({ pricing: { state: 'current' } });
    expect(await cost(upgraded.app)).toBe(priced);
  });
});

describe(`the price data of the stored costs, in a process that does not have it (${engine})`, () => {
  it('is read from the database by answers and by uploads when they meet it', async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateToLatest(db);
      const clock = new ManualClock(T0);
      // Another process kept its data and priced the stored costs with it.
      const theirs = createPriceData(dearer, { effectiveFrom: '2026-11-01' });
      await savePriceSnapshot(db.kysely, snapshotOf(theirs), clock.now());
      expect(await claimCostsFingerprint(db, theirs.fingerprint, clock.now())).toBe(theirs.fingerprint);

      // This process has the bundled data only, and has not looked yet.
      const book = new PriceBook(db, createPriceService({ data: bundledPriceData() }));
      const day = epochDayOf('2026-10-30');
      const writers = book.forWriters();
      expect(writers.serving().fingerprint).toBe(bundledPriceData().fingerprint);
      // An upload resolved with the bundled data finds the stored costs priced by theirs, and is
      // priced with theirs: 1,000 input tokens at their 2,500 µ$ a thousand (bundled: 1,250).
      const user = '00000000-0000-4000-8000-000000000001';
      await seedUser(db, user, clock.now());
      await seedDevice(db, 'device', user, clock.now());
      const writer = createIngestWriter(db, writers);
      const hourStart = day * DAY_MS + 10 * 3_600_000;
      const buckets = [seedBucket(1000n, { hourStart, source: 'codex', model: 'gpt-5' })];
      await writer.apply({ userId: user, deviceId: 'device', now: clock.now(), buckets, subscriptions: undefined });
      await writer.close();
      expect(await db.kysely.selectFrom('usage_daily').select(['model', 'cost_micros']).execute()).toEqual([
        { model: 'gpt-5', cost_micros: 2500n },
      ]);
      const met = await writers.of(theirs.fingerprint);
      expect([met.fingerprint, met.ratesOf('gpt-5', day).input]).toEqual([theirs.fingerprint, 2_500_000_000n]);
      expect((await book.of(theirs.fingerprint)).priceOn('gpt-5', day).rates.input).toBe(2_500_000_000n);
      // Reading which data the database records, the process serves with it.
      await book.refresh();
      expect(book.serving().fingerprint).toBe(theirs.fingerprint);
      await expect(book.of('data nobody kept')).rejects.toThrow(/not kept/);
    } finally {
      await db.close();
      await drop();
    }
  });
});
