/**
 * Property tests through the HTTP interface (both engines): for random uploads (re-uploads with
 * changed counts included, so the read-model triggers see inserts and updates) and random zones,
 * the daily rows add up to the summary, the monthly rows to the summary of their range, the
 * unfiltered daily rows (read from usage_days) equal the sum of the per-source rows (read
 * from usage_rollup), and the heatmap values equal the daily billable tokens.
 * The seed is fixed and printed so any failure replays exactly.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/calendar.js';
import { ingest, issueDevice, signUp, type BucketInput } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { ok } from './usage-helpers.js';

const SEED = 20_261_122;
console.info(`usage.property: fast-check seed ${SEED}`);

const ZONES: Record<string, string | number>[] = [
  {},
  { tz: 'Asia/Tokyo' },
  { tz: 'America/New_York' },
  { tz: 'Asia/Kolkata' },
  { tz: 'Asia/Kathmandu' },
  { tz_offset_minutes: -210 },
];
const SOURCES = ['codex', 'claude', 'gemini'];
const HALF_HOUR = 1_800_000;
/** Around New York's 2026 spring-forward and Europe's, 40 days of half-hours. */
const WINDOW_START = Date.UTC(2026, 1, 20);
const SLOTS = 40 * 48;
const FIELDS = [
  'total_tokens',
  'billable_total_tokens',
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'reasoning_output_tokens',
] as const;

type Row = Record<string, string>;

function add(a: Row, b: Row): Row {
  return Object.fromEntries(FIELDS.map((f) => [f, String(BigInt(a[f] ?? '0') + BigInt(b[f] ?? '0'))]));
}
const zero: Row = Object.fromEntries(FIELDS.map((f) => [f, '0']));
const pick = (r: Row): Row => Object.fromEntries(FIELDS.map((f) => [f, r[f] as string]));

const count = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1_000_000_000_000 }));
const bucket = fc.record({
  slot: fc.integer({ min: 0, max: SLOTS - 1 }),
  source: fc.constantFrom(...SOURCES),
  model: fc.constantFrom('gpt-5', 'gpt-5-codex', 'claude-sonnet-4-5', 'mystery-model'),
  input_tokens: count,
  cached_input_tokens: count,
  output_tokens: count,
  reasoning_output_tokens: count,
  total_tokens: count,
});

describe(`analytics properties (${engine})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('daily, monthly, per-source and heatmap views agree with the summary', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(bucket, { minLength: 1, maxLength: 25 }),
        fc.array(bucket, { maxLength: 10 }),
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 39 }),
        fc.integer({ min: 0, max: 39 }),
        async (first, second, zone, a, b) => {
          const user = await signUp(t);
          const device = await issueDevice(t, user);
          const toWire = (x: typeof first): BucketInput[] =>
            x.map(({ slot, ...rest }) => ({
              hour_start: new Date(WINDOW_START + slot * HALF_HOUR).toISOString(),
              ...rest,
            }));
          expect((await ingest(t, device.token, toWire(first))).statusCode).toBe(200);
          // A second upload changes some of the same buckets (updates) and adds others.
          const changed = [
            ...first
              .slice(0, 5)
              .map((x) => ({ ...x, total_tokens: x.total_tokens + 1, input_tokens: x.input_tokens + 3 })),
            ...second,
          ];
          if (changed.length > 0) expect((await ingest(t, device.token, toWire(changed))).statusCode).toBe(200);

          const from = addDays('2026-02-20', Math.min(a, b) - 1);
          const to = addDays('2026-02-20', Math.max(a, b) + 1);
          const q = { from, to, ...zone };
          const daily = await ok<{ data: Row[]; summary: { totals: Row } }>(t, user, 'usage-daily', q);
          const summary = await ok<{ totals: Row }>(t, user, 'usage-summary', q);
          const daySum = daily.data.reduce((s, r) => add(s, r), zero);
          expect(daySum).toEqual(pick(summary.totals));
          expect(pick(daily.summary.totals)).toEqual(pick(summary.totals));

          let perSource = daily.data.map(() => zero);
          for (const source of SOURCES) {
            const d = await ok<{ data: Row[] }>(t, user, 'usage-daily', { ...q, source });
            perSource = perSource.map((r, i) => add(r, d.data[i] as Row));
          }
          expect(perSource).toEqual(daily.data.map(pick));

          const monthly = await ok<{ from: string; to: string; data: Row[] }>(t, user, 'usage-monthly', {
            to,
            months: 2,
            ...zone,
          });
          const monthRange = await ok<{ totals: Row }>(t, user, 'usage-summary', {
            from: monthly.from,
            to: monthly.to,
            ...zone,
          });
          expect(monthly.data.reduce((s, r) => add(s, r), zero)).toEqual(pick(monthRange.totals));

          const heat = await ok<{ weeks: ({ day: string; value: string } | null)[][] }>(t, user, 'usage-heatmap', {
            to,
            weeks: 2,
            ...zone,
          });
          const byDay = new Map(daily.data.map((r) => [r.day, r.billable_total_tokens]));
          for (const cell of heat.weeks.flat()) {
            if (cell !== null && byDay.has(cell.day)) expect(cell.value, cell.day).toBe(byDay.get(cell.day));
          }
        },
      ),
      { seed: SEED, numRuns: 25 },
    );
  }, 120_000);
});
