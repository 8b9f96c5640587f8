import { describe, expect, it } from 'vitest';
import { BLOCK_DAYS, monthIndexOfEpochDay } from '../../src/domain/calendar.js';
import { isoWeekOf, PeriodDeltaSum } from '../../src/domain/leaderboard-periods.js';
import { zeroCounts } from '../../src/domain/token-counts.js';
import { BlockSums, deriveReadModelDeltas } from '../../src/ingest/core/read-model-deltas.js';
import type { RollupDelta } from '../../src/ingest/core/plan.js';

const delta = (iso: string, model: string, n: bigint, source = 'codex'): RollupDelta => ({
  hourStart: Date.parse(iso),
  source,
  model,
  input: n,
  cached: 0n,
  output: 0n,
  reasoning: 0n,
  total: n,
  billable: n,
});

describe('deriveReadModelDeltas', () => {
  it('numbers ISO weeks from Monday and UTC months as year·12 + month − 1', () => {
    const monday = Date.UTC(2026, 10, 23) / 86_400_000;
    expect(isoWeekOf(monday)).toBe(isoWeekOf(monday + 6));
    expect(isoWeekOf(monday - 1)).toBe(isoWeekOf(monday) - 1);
    expect(monthIndexOfEpochDay(Date.UTC(2026, 10, 30) / 86_400_000)).toBe(2026 * 12 + 10);
    expect(monthIndexOfEpochDay(Date.UTC(2026, 11, 1) / 86_400_000)).toBe(2026 * 12 + 11);
  });

  it('aggregates an upload into one delta per derived row and drops what cancels out', () => {
    const d = deriveReadModelDeltas([
      delta('2026-11-30T23:00:00Z', 'gpt-5', 5n),
      delta('2026-11-30T23:30:00Z', 'gpt-5', 7n),
      delta('2026-11-30T23:30:00Z', 'claude-opus-4-1', 3n, 'claude'),
      delta('2026-12-01T00:00:00Z', 'gemini-2.5-pro', 2n, 'gemini'),
      delta('2026-12-01T00:30:00Z', 'gemini-2.5-pro', -2n, 'gemini'),
    ]);
    const day = Date.UTC(2026, 10, 30) / 86_400_000;
    expect(d.daily.map((x) => [x.day, x.source, x.model, x.total])).toEqual([
      [day, 'codex', 'gpt-5', 12n],
      [day, 'claude', 'claude-opus-4-1', 3n],
    ]);
    // One entry per UTC day, its half-hours summed over sources and models; the 1st's two half-hours are kept (they cancel only in the day's sums).
    expect(d.days.map((x) => [x.day, x.slots.map((s) => [s.slot, s.total])])).toEqual([
      [
        day,
        [
          [46, 5n],
          [47, 10n],
        ],
      ],
      [
        day + 1,
        [
          [0, 2n],
          [1, -2n],
        ],
      ],
    ]);
  });

  it("sums a user's daily changes of tokens and cost into week, month and all-time rows per family", () => {
    const sum = new PeriodDeltaSum();
    const day = Date.UTC(2026, 10, 30) / 86_400_000; // a Monday, the last of November
    sum.add(day, 'gpt-5', 12n, 900n);
    sum.add(day, 'claude-opus-4-1', 3n, 40n);
    sum.add(day + 1, 'gemini-2.5-pro', 0n, 7n); // a cost without billable tokens still moves the rows
    sum.add(day + 1, 'gpt-5', 5n, -5n); // a repriced row's cost may fall
    sum.add(day + 2, 'gpt-5', 0n, 0n); // nothing
    const d = sum.deltas();
    expect(d.months.map((m) => [m.period, m.gpt, m.claude, m.other, m.gptCost, m.claudeCost, m.otherCost])).toEqual([
      [2026 * 12 + 10, 12n, 3n, 0n, 900n, 40n, 0n],
      [2026 * 12 + 11, 5n, 0n, 0n, -5n, 0n, 7n],
    ]);
    expect(d.weeks).toHaveLength(1);
    expect(d.total).toEqual({ gpt: 17n, claude: 3n, other: 0n, gptCost: 895n, claudeCost: 40n, otherCost: 7n });
    expect(new PeriodDeltaSum().deltas()).toEqual({ weeks: [], months: [], total: null });
  });
});

describe('BlockSums', () => {
  const daily = (day: number, model: string, n: bigint) => ({ day, source: 'codex', model, ...zeroCounts(), total: n });
  const next = (total: bigint, costMicros: bigint) => ({ ...zeroCounts(), total, costMicros });

  it("sums daily rows' changes per 16-day block and model: counts, and the new cost less the stored one", () => {
    const first = 1297 * BLOCK_DAYS;
    const sums = new BlockSums();
    sums.add(daily(first, 'gpt-5', 5n), 100n, next(25n, 180n)); // stored 20 tokens at 100, now 25 at 180
    sums.add(daily(first + BLOCK_DAYS - 1, 'gpt-5', 3n), 0n, next(3n, 40n)); // a new row
    sums.add(daily(first - 1, 'gpt-5', 2n), 10n, next(4n, 20n)); // the block before
    sums.add(daily(first, 'o3', 0n), 50n, next(9n, 60n)); // counts as stored, repriced
    sums.add(daily(first + 1, 'o4', 0n), 7n, next(1n, 7n)); // nothing moves: left out
    expect(sums.values().map((b) => [b.block, b.model, b.total, b.costMicros])).toEqual([
      [1297, 'gpt-5', 8n, 120n],
      [1296, 'gpt-5', 2n, 10n],
      [1297, 'o3', 0n, 10n],
    ]);
  });
});
