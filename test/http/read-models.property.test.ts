/**
 * Property test through the HTTP interface (both engines): after random upload histories — two
 * devices of one user and a second user, re-uploads with changed counts, project variants that
 * come and go, duplicate buckets, counts up to 10^12 — every read model the ingest writers keep
 * equals what the rollup defines, computed here independently from `usage_rollup`:
 * `usage_daily` (with each row's stored cost equal to its counts priced that day), `usage_blocks`
 * (the daily rows' counts and costs summed per 16 days),
 * `usage_days` (each day's sums, then its non-empty half-hours ascending, as packed text), and the
 * leaderboard's per-period family
 * totals; and each account's count of stored raw buckets (`user_storage`) equals the buckets its
 * devices hold. The seed is fixed and printed so any failure replays exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelFamily } from '../../src/domain/model-family.js';
import { rowCostMicros } from '../../src/pricing/cost.js';
import { createPriceService } from '../../src/pricing/price-service.js';
import { ingest, issueDevice, signUp, type BucketInput, TRILLION_DAY_BOUND } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { storedBuckets } from '../helpers/stored-buckets.js';
import { blocksAndTheirDays } from '../helpers/stored-usage.js';

const SEED = 20_261_123;
console.info(`read-models.property: fast-check seed ${SEED}`);

const DAY = 86_400_000;
const HALF_HOUR = 1_800_000;
/** Three UTC days before the test clock's "now" (2026-11-01T12:00Z), across a week and a month boundary. */
const WINDOW_START = Date.UTC(2026, 9, 29);
const SOURCES = ['codex', 'claude', 'gemini'];
const MODELS = ['gpt-5', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'o3', 'my-local-llama'];
const PROJECTS = ['', 'acme/api', 'acme/web'];
const COUNTS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'] as const;

const prices = createPriceService();

const count = fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.constant(1_000_000_000_000));
const bucket = fc.record({
  slot: fc.integer({ min: 0, max: 3 * 48 - 1 }),
  source: fc.constantFrom(...SOURCES),
  model: fc.constantFrom(...MODELS),
  project: fc.constantFrom(...PROJECTS),
  input: count,
  cached: count,
  output: count,
  reasoning: count,
});
const upload = fc.record({
  who: fc.integer({ min: 0, max: 2 }),
  buckets: fc.array(bucket, { minLength: 1, maxLength: 12 }),
});

type Row = Record<string, unknown>;
const key = (...parts: unknown[]) => parts.map(String).join('|');

function bucketInput(b: {
  slot: number;
  source: string;
  model: string;
  project: string;
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}): BucketInput {
  return {
    hour_start: new Date(WINDOW_START + b.slot * HALF_HOUR).toISOString(),
    source: b.source,
    model: b.model,
    input_tokens: b.input,
    cached_input_tokens: b.cached,
    output_tokens: b.output,
    reasoning_output_tokens: b.reasoning,
    total_tokens: Math.min(b.input + b.output, 1_000_000_000_000),
    ...(b.project ? { project_key: b.project } : {}),
  };
}

async function all(
  t: TestApp,
  table:
    | 'usage_rollup'
    | 'usage_daily'
    | 'usage_days'
    | 'leaderboard_user_weeks'
    | 'leaderboard_user_months'
    | 'leaderboard_user_totals'
    | 'user_storage',
): Promise<Row[]> {
  return (await t.db.kysely.selectFrom(table).selectAll().execute()) as Row[];
}

const nonZero = (r: Row, cols: readonly string[]) => cols.some((c) => BigInt(r[c] as bigint) !== 0n);

/** Sums rows into a map of key → six counts (or three families). */
function sumInto(map: Map<string, bigint[]>, k: string, values: bigint[]): void {
  const cur = map.get(k);
  if (cur === undefined) map.set(k, [...values]);
  else values.forEach((v, i) => (cur[i] = (cur[i] as bigint) + v));
}

function asMap(rows: Row[], keyOf: (r: Row) => string, cols: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rows) if (nonZero(r, cols)) out.set(keyOf(r), cols.map((c) => String(r[c])).join(','));
  return out;
}

function expectedFromRollup(rollup: Row[]) {
  const daily = new Map<string, bigint[]>();
  const slots = new Map<string, bigint[]>();
  const weeks = new Map<string, bigint[]>();
  const months = new Map<string, bigint[]>();
  const totals = new Map<string, bigint[]>();
  for (const r of rollup) {
    const hourStart = Number(r.hour_start);
    const day = Math.floor(hourStart / DAY);
    const slot = (hourStart - day * DAY) / HALF_HOUR;
    const counts = COUNTS.map((c) => BigInt(r[c] as bigint));
    sumInto(daily, key(r.user_id, day, r.source, r.model), counts);
    sumInto(slots, key(r.user_id, day, String(slot).padStart(2, '0')), counts);
    const billable = BigInt(r.billable as bigint);
    const fam = modelFamily(String(r.model));
    const families = [fam === 'gpt' ? billable : 0n, fam === 'claude' ? billable : 0n, fam === 'other' ? billable : 0n];
    const d = new Date(hourStart);
    sumInto(weeks, key(r.user_id, Math.floor((day + 3) / 7)), families);
    sumInto(months, key(r.user_id, d.getUTCFullYear() * 12 + d.getUTCMonth()), families);
    sumInto(totals, key(r.user_id), families);
  }
  const strip = (m: Map<string, bigint[]>) =>
    new Map([...m].filter(([, v]) => v.some((x) => x !== 0n)).map(([k, v]) => [k, v.join(',')]));
  // Definition of a packed day: its six sums, then each non-empty half-hour's slot and six sums, slots ascending.
  const days = new Map<string, { totals: bigint[]; entries: string[] }>();
  for (const [k, counts] of [...slots].sort(([x], [y]) => (x < y ? -1 : 1))) {
    if (counts.every((c) => c === 0n)) continue;
    const [user, day, slot] = k.split('|');
    const dayKey = key(user, day);
    const d = days.get(dayKey) ?? { totals: [0n, 0n, 0n, 0n, 0n, 0n], entries: [] };
    days.set(dayKey, d);
    counts.forEach((c, i) => (d.totals[i] = (d.totals[i] as bigint) + c));
    d.entries.push([Number(slot), ...counts].join(','));
  }
  const packed = new Map([...days].map(([k, d]) => [k, [d.totals.join(','), ...d.entries].join(',')]));
  return { daily: strip(daily), days: packed, weeks: strip(weeks), months: strip(months), totals: strip(totals) };
}

describe(`read models kept by the ingest writers (${engine})`, () => {
  it('equal their definition from the rollup after random upload histories, with every stored cost right', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(upload, { minLength: 1, maxLength: 6 }), async (uploads) => {
        const t = await createTestApp({ env: TRILLION_DAY_BOUND }); // counts of 10^12 pass the default day bound
        try {
          const a = await signUp(t);
          const b = await signUp(t);
          const devices = [
            await issueDevice(t, a, 'one'),
            await issueDevice(t, a, 'two'),
            await issueDevice(t, b, 'three'),
          ];
          for (const u of uploads) {
            const res = await ingest(t, (devices[u.who] as { token: string }).token, u.buckets.map(bucketInput));
            expect(res.statusCode, res.body).toBe(200);
          }
          const expected = expectedFromRollup(await all(t, 'usage_rollup'));
          const daily = await all(t, 'usage_daily');
          expect(asMap(daily, (r) => key(r.user_id, r.day, r.source, r.model), COUNTS)).toEqual(expected.daily);
          const blocks = await blocksAndTheirDays(t.db.kysely);
          expect(blocks.stored).toEqual(blocks.fromDays);
          const stored = (await all(t, 'usage_days')).filter((r) => r.counts !== '0,0,0,0,0,0');
          expect(new Map(stored.map((r) => [key(r.user_id, r.day), r.counts]))).toEqual(expected.days);
          const fams = ['gpt', 'claude', 'other'];
          expect(asMap(await all(t, 'leaderboard_user_weeks'), (r) => key(r.user_id, r.week), fams)).toEqual(
            expected.weeks,
          );
          expect(asMap(await all(t, 'leaderboard_user_months'), (r) => key(r.user_id, r.month), fams)).toEqual(
            expected.months,
          );
          expect(asMap(await all(t, 'leaderboard_user_totals'), (r) => key(r.user_id), fams)).toEqual(expected.totals);
          const owners = new Map(devices.map((d, i) => [d.deviceId, i < 2 ? a.id : b.id]));
          const held = new Map<string, number>();
          for (const s of await storedBuckets(t.db.kysely)) {
            const owner = owners.get(s.deviceId ?? '') ?? '?';
            held.set(owner, (held.get(owner) ?? 0) + 1);
          }
          expect(asMap(await all(t, 'user_storage'), (r) => String(r.user_id), ['stored_buckets'])).toEqual(
            new Map([...held].map(([u, n]) => [u, String(n)])),
          );
          for (const r of daily) {
            const counts = {
              input: BigInt(r.input as bigint),
              cached: BigInt(r.cached_input as bigint),
              output: BigInt(r.output as bigint),
              reasoning: BigInt(r.reasoning as bigint),
            };
            expect(BigInt(r.cost_micros as bigint), key(r.day, r.source, r.model)).toBe(
              rowCostMicros(prices, String(r.source), String(r.model), Number(r.day), counts),
            );
          }
        } finally {
          await t.close();
        }
      }),
      { seed: SEED, numRuns: 12 },
    );
  });
});
