/**
 * Property tests: for random rollup rows and zones, daily rows add up to the range total,
 * monthly rows to the same total, and the half-hour rows of each day to that day's row.
 * The seed is fixed and printed so any failure replays exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, epochDayOf, formatEpochDay, monthIndexOf } from '../../src/domain/calendar.js';
import { foldDaily, foldHalfHours, foldMonthly } from '../../src/domain/fold.js';
import { sumCounts } from '../../src/domain/token-counts.js';
import type { UsageRow } from '../../src/domain/usage-row.js';
import { localRangeToInstants, resolveZone } from '../../src/domain/zones.js';

const SEED = 20_261_122;
console.info(`fold.property: fast-check seed ${SEED}`);

const ZONES = ['UTC', 'Asia/Tokyo', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu'] as const;
const HALF_HOUR = 1_800_000;
const MAX_COUNT = 10n ** 12n;

const countArb = fc.oneof(fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: MAX_COUNT }));

const rowsForRange = (startMs: number, endMs: number, maxRows: number): fc.Arbitrary<UsageRow[]> => {
  const firstSlot = Math.ceil(startMs / HALF_HOUR);
  const lastSlot = Math.ceil(endMs / HALF_HOUR) - 1;
  return fc.array(
    fc
      .record({
        slot: fc.integer({ min: firstSlot, max: lastSlot }),
        source: fc.constantFrom('codex', 'claude', 'opencode'),
        model: fc.constantFrom('gpt-5', 'claude-sonnet-4-5', 'mystery'),
        input: countArb,
        cached: countArb,
        output: countArb,
        reasoning: countArb,
        total: countArb,
        billable: countArb,
      })
      .map(({ slot, ...rest }) => ({ hourStart: slot * HALF_HOUR, ...rest })),
    { maxLength: maxRows },
  );
};

const scenarioArb = (maxSpan: number, maxRows: number) =>
  fc
    .record({
      zoneName: fc.constantFrom(...ZONES),
      fromDay: fc.integer({ min: epochDayOf('2024-01-01'), max: epochDayOf('2026-12-31') }),
      span: fc.integer({ min: 1, max: maxSpan }),
    })
    .chain(({ zoneName, fromDay, span }) => {
      const zone = resolveZone({ tz: zoneName });
      const from = formatEpochDay(fromDay);
      const to = addDays(from, span - 1);
      const { startMs, endMs } = localRangeToInstants(zone, from, to);
      return rowsForRange(startMs, endMs, maxRows).map((rows) => ({ zone, from, to, rows }));
    });

const widerScenarioArb = fc
  .record({
    zoneName: fc.constantFrom(...ZONES),
    fromDay: fc.integer({ min: epochDayOf('2024-01-01'), max: epochDayOf('2026-12-31') }),
    span: fc.integer({ min: 1, max: 60 }),
  })
  .chain(({ zoneName, fromDay, span }) => {
    const zone = resolveZone({ tz: zoneName });
    const from = formatEpochDay(fromDay);
    const to = addDays(from, span - 1);
    const window = localRangeToInstants(zone, from, to);
    const margin = 2 * 86_400_000;
    return rowsForRange(window.startMs - margin, window.endMs + margin, 300).map((rows) => ({
      zone,
      from,
      to,
      window,
      rows,
    }));
  });

describe('fold properties (seed printed above)', () => {
  it('the SQL instant window and the fold agree on which rows belong to the range', () => {
    fc.assert(
      fc.property(widerScenarioArb, ({ zone, from, to, window, rows }) => {
        const inWindow = rows.filter((r) => r.hourStart >= window.startMs && r.hourStart < window.endMs);
        const days = foldDaily(rows, zone, from, to);
        expect(sumCounts(days.map((d) => d.totals))).toEqual(sumCounts(inWindow));
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('daily rows and monthly rows both add up to the total of the range', () => {
    fc.assert(
      fc.property(scenarioArb(400, 300), ({ zone, from, to, rows }) => {
        const total = sumCounts(rows);
        const days = foldDaily(rows, zone, from, to);
        expect(days).toHaveLength(epochDayOf(to) - epochDayOf(from) + 1);
        expect(sumCounts(days.map((d) => d.totals))).toEqual(total);
        const months = monthIndexOf(to) - monthIndexOf(from) + 1;
        const monthly = foldMonthly(rows, zone, to, months);
        expect(monthly).toHaveLength(months);
        expect(sumCounts(monthly.map((m) => m.totals))).toEqual(total);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("the half-hour rows of every day of a range equal that day's daily row", () => {
    fc.assert(
      fc.property(scenarioArb(12, 200), ({ zone, from, to, rows }) => {
        const days = foldDaily(rows, zone, from, to);
        let grand = 0n;
        for (const d of days) {
          const halfHours = foldHalfHours(rows, zone, d.day);
          expect(sumCounts(halfHours.map((h) => h.totals))).toEqual(d.totals);
          grand += d.totals.total;
        }
        expect(grand).toBe(sumCounts(rows).total);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});
