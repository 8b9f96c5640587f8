import { describe, expect, it } from 'vitest';
import { deriveReadModelDeltas, isoWeekOf, prefixRowsOf, utcMonthOf } from '../../src/ingest/read-model-deltas.js';
import type { RollupDelta } from '../../src/ingest/plan.js';

const delta = (iso: string, model: string, n: bigint, source = 'codex'): RollupDelta => ({
  hourStart: Date.parse(iso), source, model, input: n, cached: 0n, output: 0n, reasoning: 0n, total: n, billable: n,
});

describe('deriveReadModelDeltas', () => {
  it('lists the prefix rows of a half-hour: block rows above it and the rows above it in its own block', () => {
    expect(prefixRowsOf(0)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 32, 40, 48]);
    expect(prefixRowsOf(7)).toEqual([8, 16, 24, 32, 40, 48]);
    expect(prefixRowsOf(8)).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 24, 32, 40, 48]);
    expect(prefixRowsOf(47)).toEqual([48]);
  });

  it('numbers ISO weeks from Monday and UTC months as year·12 + month − 1', () => {
    const monday = Date.UTC(2026, 10, 23) / 86_400_000;
    expect(isoWeekOf(monday)).toBe(isoWeekOf(monday + 6));
    expect(isoWeekOf(monday - 1)).toBe(isoWeekOf(monday) - 1);
    expect(utcMonthOf(Date.parse('2026-11-30T23:30:00Z'))).toBe(2026 * 12 + 10);
    expect(utcMonthOf(Date.parse('2026-12-01T00:00:00Z'))).toBe(2026 * 12 + 11);
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
    // Slots 46 and 47 of the 30th both feed row 48; only slot 46 feeds row 47. The 1st's two half-hours cancel in row 48 (dropped) but not in row 1.
    expect(d.prefix.filter((p) => p.day === day).map((p) => [p.k, p.total])).toEqual([
      [47, 5n],
      [48, 15n],
    ]);
    expect(d.prefix.filter((p) => p.day === day + 1).map((p) => [p.k, p.total])).toEqual([[1, 2n]]);
    expect(d.months.map((m) => [m.period, m.gpt, m.claude, m.other])).toEqual([[2026 * 12 + 10, 12n, 3n, 0n]]);
    expect(d.weeks).toHaveLength(1);
    expect(d.total).toEqual({ gpt: 12n, claude: 3n, other: 0n });
  });
});
