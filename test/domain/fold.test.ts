import { describe, expect, it } from 'vitest';
import {
  billableByDay,
  dayRowsToWire,
  foldDaily,
  foldHalfHours,
  foldMonthly,
  halfHourRowsToWire,
  monthRowsToWire,
} from '../../src/domain/fold.js';
import { sumCounts, toTokenCountsWire, zeroCounts } from '../../src/domain/token-counts.js';
import type { UsageRow } from '../../src/domain/usage-row.js';
import { UTC_ZONE, resolveZone } from '../../src/domain/zones.js';
import { row } from './helpers.js';

const ny = resolveZone({ tz: 'America/New_York' });
const kathmandu = resolveZone({ tz: 'Asia/Kathmandu' });

describe('foldDaily', () => {
  it('zero-fills every day of the range and counts rows on their local day', () => {
    const rows = [row('2026-03-08T04:30:00Z', 10n), row('2026-03-08T05:00:00Z', 20n), row('2026-03-10T03:30:00Z', 5n)];
    const days = foldDaily(rows, ny, '2026-03-07', '2026-03-10');
    expect(days.map((d) => [d.day, d.totals.total])).toEqual([
      ['2026-03-07', 10n], // 23:30 EST
      ['2026-03-08', 20n], // 00:00 EST
      ['2026-03-09', 5n], // 23:30 EDT on the 9th
      ['2026-03-10', 0n],
    ]);
    const utc = foldDaily(rows, UTC_ZONE, '2026-03-07', '2026-03-10');
    expect(utc.map((d) => d.totals.total)).toEqual([0n, 30n, 0n, 5n]);
  });

  it('puts the Kathmandu bucket that straddles midnight on the day it starts', () => {
    const rows = [row('2026-03-08T18:00:00Z', 7n), row('2026-03-08T18:30:00Z', 3n)];
    const days = foldDaily(rows, kathmandu, '2026-03-08', '2026-03-09');
    expect(days.map((d) => d.totals.total)).toEqual([7n, 3n]);
  });

  it('ignores rows outside the range and returns [] for an empty range', () => {
    expect(
      foldDaily([row('2026-01-05T00:00:00Z', 1n)], UTC_ZONE, '2026-01-01', '2026-01-02').every(
        (d) => d.totals.total === 0n,
      ),
    ).toBe(true);
    expect(foldDaily([], UTC_ZONE, '2026-01-02', '2026-01-01')).toEqual([]);
  });

  it('sums beyond 2^53 exactly', () => {
    const big = 10n ** 12n;
    const rows = Array.from({ length: 48 * 200 }, (_, i) => ({
      ...row('2026-01-01T00:00:00Z', big),
      hourStart: Date.parse('2026-01-01T00:00:00Z') + (i % 48) * 1_800_000,
    }));
    const [only] = foldDaily(rows, UTC_ZONE, '2026-01-01', '2026-01-01');
    expect(only?.totals.total).toBe(9_600n * big);
    expect(toTokenCountsWire(only?.totals ?? zeroCounts()).total_tokens).toBe('9600000000000000');
  });
});

describe('foldMonthly', () => {
  it('returns exactly N months oldest first and truncates at to', () => {
    const rows = [
      row('2025-12-31T23:30:00Z', 1n), // UTC Dec; in Tokyo already Jan
      row('2026-02-10T12:00:00Z', 2n),
      row('2026-03-20T12:00:00Z', 4n), // after `to`
    ];
    const tokyo = resolveZone({ tz: 'Asia/Tokyo' });
    const months = foldMonthly(rows, tokyo, '2026-03-15', 4);
    expect(months.map((m) => [m.month, m.totals.total])).toEqual([
      ['2025-12', 0n],
      ['2026-01', 1n],
      ['2026-02', 2n],
      ['2026-03', 0n],
    ]);
    expect(foldMonthly(rows, UTC_ZONE, '2026-03-31', 24)).toHaveLength(24);
    expect(foldMonthly(rows, UTC_ZONE, '2026-03-31', 24)[0]?.month).toBe('2024-04');
  });
});

describe('foldHalfHours', () => {
  it('fills 46 rows on the spring-forward day and places rows by UTC start', () => {
    const rows = [row('2026-03-08T06:30:00Z', 9n), row('2026-03-08T07:00:00Z', 1n), row('2026-03-09T04:00:00Z', 100n)];
    const hours = foldHalfHours(rows, ny, '2026-03-08');
    expect(hours).toHaveLength(46);
    expect(hours.find((h) => h.hour === '2026-03-08T01:30:00-05:00')?.totals.total).toBe(9n);
    expect(hours.find((h) => h.hour === '2026-03-08T03:00:00-04:00')?.totals.total).toBe(1n);
    expect(sumCounts(hours.map((h) => h.totals)).total).toBe(10n);
  });

  it('keeps both repeated hours apart on the fall-back day', () => {
    const rows = [row('2026-11-01T05:00:00Z', 1n), row('2026-11-01T06:00:00Z', 2n)];
    const hours = foldHalfHours(rows, ny, '2026-11-01');
    expect(hours).toHaveLength(50);
    expect(hours.filter((h) => h.hour.startsWith('2026-11-01T01:00')).map((h) => [h.hour, h.totals.total])).toEqual([
      ['2026-11-01T01:00:00-04:00', 1n],
      ['2026-11-01T01:00:00-05:00', 2n],
    ]);
  });
});

describe('wire rows', () => {
  it('carries every token field as a decimal string', () => {
    const rows = [row('2026-03-08T06:30:00Z', 8n)];
    const fields = {
      total_tokens: '8',
      billable_total_tokens: '8',
      input_tokens: '8',
      cached_input_tokens: '4',
      output_tokens: '2',
      reasoning_output_tokens: '1',
    };
    expect(dayRowsToWire(foldDaily(rows, ny, '2026-03-08', '2026-03-08'))).toEqual([{ day: '2026-03-08', ...fields }]);
    expect(halfHourRowsToWire(foldHalfHours(rows, ny, '2026-03-08'))[3]).toEqual({
      hour: '2026-03-08T01:30:00-05:00',
      hour_start: '2026-03-08T06:30:00Z',
      ...fields,
    });
    expect(monthRowsToWire(foldMonthly(rows, ny, '2026-03-08', 1))).toEqual([{ month: '2026-03', ...fields }]);
  });
});

describe('billableByDay', () => {
  it('maps each day to its billable tokens', () => {
    const days = foldDaily([row('2026-01-02T10:00:00Z', 5n)], UTC_ZONE, '2026-01-01', '2026-01-02');
    expect([...billableByDay(days)]).toEqual([
      ['2026-01-01', 0n],
      ['2026-01-02', 5n],
    ]);
  });
});

describe('fold speed', () => {
  it('folds a heavy user year (16 active half-hours a day, 4 models) in well under a few ms', () => {
    const rows: UsageRow[] = [];
    const start = Date.parse('2025-01-01T00:00:00Z');
    for (let d = 0; d < 365; d++) {
      for (let h = 0; h < 16; h++) {
        const hourStart = start + d * 86_400_000 + (h + 20) * 1_800_000;
        rows.push({
          hourStart,
          source: 'codex',
          model: `m${h % 4}`,
          input: 900n,
          cached: 400n,
          output: 100n,
          reasoning: 50n,
          total: 1000n,
          billable: 1000n,
        });
      }
    }
    for (let i = 0; i < 50; i++) foldDaily(rows, ny, '2025-01-01', '2025-12-31'); // warm-up
    const reps = 100;
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) foldDaily(rows, ny, '2025-01-01', '2025-12-31');
    const perFold = (performance.now() - t0) / reps;
    console.info(`foldDaily: ${rows.length} rows, America/New_York, ${perFold.toFixed(3)} ms per one-year fold`);
    expect(perFold).toBeLessThan(5); // generous for slow CI; typically well under 1 ms
  });
});
