/**
 * Property test through the HTTP interface (both engines): a team's `day` rows, which cut each
 * whole UTC day's `usage_daily` sums at the zone's midnight and read only one side of the cut from
 * the half-hours (db/queries/team-day-pieces.ts), equal a brute force over the members' raw
 * half-hours (`usage_rollup`): each bucket in the local day its start falls in (by `Intl`, not by
 * the server's zone code), each local day priced per (source, model, UTC day) — for random windows
 * in zones whose midnight falls early, late, at a quarter hour, or moves with DST (New York, Lord
 * Howe's half hour, Chatham), with and without a source or member filter, counts up to 10^12 and
 * re-uploads that change counts. The seed is fixed and printed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zeroCounts, addCounts, type TokenCounts } from '../../src/domain/token-counts.js';
import { createCostAccumulator, type CostAccumulator } from '../../src/pricing/cost.js';
import { totalsWithCost } from '../../src/pricing/money.js';
import { createPriceService } from '../../src/pricing/price-service.js';
import { bearer, TRILLION_DAY_BOUND } from '../helpers/actors.js';
import { teamOfTwoWithHistory } from '../helpers/team-history.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/actors.js';

const SEED = 20_261_130;
console.info(`teams-usage-days.property: fast-check seed ${SEED}`);

const DAY = 86_400_000;
/** 80 UTC days ending the day before the test clock's "now" (2026-11-01T12:00Z), across several DST changes. */
const FIRST_DAY = Date.UTC(2026, 7, 13) / DAY;
const SPAN_DAYS = 80;
const ZONES = [
  'UTC',
  'America/New_York',
  'Asia/Tokyo',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/St_Johns',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Europe/London',
];

const count = fc.integer({ min: 0, max: 5_000_000 });
const bucket = fc.record({
  slot: fc.integer({ min: 0, max: SPAN_DAYS * 48 - 1 }),
  source: fc.constantFrom('codex', 'claude'),
  model: fc.constantFrom('gpt-5', 'claude-sonnet-4-5', 'my-local-llama'),
  input: fc.oneof({ weight: 9, arbitrary: count }, { weight: 1, arbitrary: fc.constant(990_000_000_000) }),
  output: count,
});
const history = fc.array(
  fc.record({ who: fc.integer({ min: 0, max: 1 }), buckets: fc.array(bucket, { minLength: 40, maxLength: 80 }) }),
  { minLength: 10, maxLength: 12 },
);
/** Windows of up to 200 days, so some have stretches of one offset past 90 days (read with another plan on PostgreSQL). */
const window = fc.record({
  from: fc.integer({ min: -120, max: SPAN_DAYS }),
  days: fc.integer({ min: 1, max: 200 }),
  zone: fc.constantFrom(...ZONES),
  filter: fc.constantFrom('none', 'source', 'member'),
});

const isoDay = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

interface RawRow extends TokenCounts {
  userId: string;
  hourStart: number;
  source: string;
  model: string;
}

describe(`a team's day rows against its raw half-hours (${engine})`, () => {
  let t: TestApp;
  let members: TestUser[];
  let teamId: string;
  let raw: RawRow[];
  const prices = createPriceService();

  beforeAll(async () => {
    t = await createTestApp({ env: TRILLION_DAY_BOUND });
    const [uploads] = fc.sample(history, { seed: SEED, numRuns: 1 });
    ({ members, teamId } = await teamOfTwoWithHistory(t, uploads ?? [], FIRST_DAY * DAY, 'Days'));
    const rows = await t.db.kysely
      .selectFrom('usage_rollup')
      .selectAll()
      .where(
        'user_id',
        'in',
        members.map((m) => m.id),
      )
      .execute();
    raw = rows.map((r) => ({
      userId: r.user_id,
      hourStart: Number(r.hour_start),
      source: r.source,
      model: r.model,
      input: BigInt(r.input),
      cached: BigInt(r.cached_input),
      output: BigInt(r.output),
      reasoning: BigInt(r.reasoning),
      total: BigInt(r.total),
      billable: BigInt(r.billable),
    }));
    expect(raw.length).toBeGreaterThan(500);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers, for every local day, the sums and cost of the half-hours starting in it', async () => {
    await fc.assert(
      fc.asyncProperty(window, async (w) => {
        const from = isoDay(FIRST_DAY + w.from);
        const to = isoDay(FIRST_DAY + w.from + w.days - 1);
        const member = members[1] as TestUser;
        const filter = w.filter === 'source' ? '&source=codex' : w.filter === 'member' ? `&user_id=${member.id}` : '';
        const res = await t.app.inject({
          method: 'GET',
          url: `/functions/svc-team-usage?team_id=${teamId}&from=${from}&to=${to}&tz=${encodeURIComponent(w.zone)}&group_by=day${filter}`,
          headers: bearer((members[0] as TestUser).accessToken),
        });
        expect(res.statusCode, res.body).toBe(200);
        const answer = res.json<{ rows: { key: string; totals: unknown }[] }>();

        const localDate = new Intl.DateTimeFormat('en-CA', {
          timeZone: w.zone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
        });
        const days = new Map<string, { counts: TokenCounts; acc: CostAccumulator }>();
        for (let d = 0; d < w.days; d++)
          days.set(isoDay(FIRST_DAY + w.from + d), { counts: zeroCounts(), acc: createCostAccumulator(prices) });
        for (const r of raw) {
          if (w.filter === 'source' && r.source !== 'codex') continue;
          if (w.filter === 'member' && r.userId !== member.id) continue;
          const day = days.get(localDate.format(new Date(r.hourStart)));
          if (day === undefined) continue;
          addCounts(day.counts, r);
          day.acc.add(r);
        }
        expect(answer.rows.map((r) => [r.key, r.totals])).toEqual(
          [...days].map(([key, d]) => [key, totalsWithCost(d.counts, d.acc.totalMicros())]),
        );
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});
