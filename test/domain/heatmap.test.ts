import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/calendar.js';
import {
  buildHeatmap,
  heatmapGridStart,
  heatmapLevel,
  heatmapQueryFrom,
  heatmapThresholds,
  parseWeekStartsOn,
  parseWeeks,
  resolveHeatmapRange,
  streakDays,
  type HeatmapRange,
} from '../../src/domain/heatmap.js';
import { InvalidParamError } from '../../src/domain/param-error.js';
import { UTC_ZONE, resolveZone } from '../../src/domain/zones.js';

const range = (to: string, weeks: number, weekStartsOn: 'sun' | 'mon' = 'sun'): HeatmapRange => ({
  from: heatmapGridStart(to, weeks, weekStartsOn),
  to,
  weeks,
  weekStartsOn,
});

describe('heatmap grid', () => {
  it('starts on the week-start on or before to, minus 7·(weeks−1) days', () => {
    // 2026-11-19 is a Thursday.
    expect(heatmapGridStart('2026-11-19', 1, 'sun')).toBe('2026-11-15');
    expect(heatmapGridStart('2026-11-19', 1, 'mon')).toBe('2026-11-16');
    expect(heatmapGridStart('2026-11-19', 52, 'sun')).toBe(addDays('2026-11-15', -7 * 51));
    // to on the week start itself
    expect(heatmapGridStart('2026-11-15', 2, 'sun')).toBe('2026-11-08');
    expect(heatmapGridStart('2026-11-15', 1, 'mon')).toBe('2026-11-09');
  });

  it('has weeks columns of 7 cells with nulls after to', () => {
    const hm = buildHeatmap(range('2026-11-19', 3), new Map());
    expect(hm.weeks).toHaveLength(3);
    for (const col of hm.weeks) expect(col).toHaveLength(7);
    const last = hm.weeks[2] ?? [];
    expect(last.slice(0, 5).every((c) => c !== null)).toBe(true);
    expect(last.slice(5)).toEqual([null, null]);
    expect(last[4]).toEqual({ day: '2026-11-19', value: '0', level: 0 });
    expect(hm.weeks[0]?.[0]?.day).toBe('2026-11-01');
    expect(hm.from).toBe('2026-11-01');
    expect(hm.thresholds).toEqual({ t1: '0', t2: '0', t3: '0' });
    expect(hm.active_days).toBe(0);
    expect(hm.streak_days).toBe(0);
  });
});

describe('thresholds and levels', () => {
  it('takes sorted active values at ⌊(n−1)·q⌋', () => {
    const values = Array.from({ length: 10 }, (_, i) => BigInt((10 - i) * 100)); // 1000..100 unsorted
    // sorted: 100..1000; n−1 = 9 → indexes 4, 6, 8
    expect(heatmapThresholds(values)).toEqual({ t1: 500n, t2: 700n, t3: 900n });
    expect(heatmapThresholds([42n])).toEqual({ t1: 42n, t2: 42n, t3: 42n });
    expect(heatmapThresholds([])).toEqual({ t1: 0n, t2: 0n, t3: 0n });
    // n = 11: indexes 5, 7 (7.5), 9
    const eleven = Array.from({ length: 11 }, (_, i) => BigInt(i + 1));
    expect(heatmapThresholds(eleven)).toEqual({ t1: 6n, t2: 8n, t3: 10n });
  });

  it('grades values 0..4', () => {
    expect([0n, 1n, 5n, 6n, 7n, 8n, 9n].map((v) => heatmapLevel(v, 5n, 6n, 8n))).toEqual([0, 1, 1, 2, 3, 3, 4]);
  });

  it('builds levels, active days and values beyond 2^53 as strings', () => {
    const huge = 2n ** 60n;
    const map = new Map<string, bigint>([
      ['2026-11-16', 10n],
      ['2026-11-17', 20n],
      ['2026-11-18', huge],
      ['2026-11-19', 30n],
      ['2026-11-25', 99n], // after to: ignored by the grid
    ]);
    const hm = buildHeatmap(range('2026-11-19', 1), map);
    expect(hm.active_days).toBe(4);
    // sorted 10, 20, 30, huge; indexes 1, 2, 2
    expect(hm.thresholds).toEqual({ t1: '20', t2: '30', t3: '30' });
    expect(hm.weeks[0]?.map((c) => c?.level ?? null)).toEqual([0, 1, 1, 4, 2, null, null]);
    expect(hm.weeks[0]?.[3]?.value).toBe(huge.toString());
    expect(hm.streak_days).toBe(4);
  });
});

describe('streak', () => {
  it('counts consecutive active days ending at to, 0 when to is empty', () => {
    const map = new Map<string, bigint>([
      ['2026-01-01', 1n],
      ['2026-01-03', 1n],
      ['2026-01-04', 2n],
      ['2026-01-05', 0n],
    ]);
    expect(streakDays(map, '2026-01-04')).toBe(2);
    expect(streakDays(map, '2026-01-05')).toBe(0);
    expect(streakDays(map, '2026-01-01')).toBe(1);
  });

  it('is not capped by the grid when the caller supplies earlier days', () => {
    const map = new Map<string, bigint>();
    for (let i = 0; i < 30; i++) map.set(addDays('2026-01-30', -i), 1n);
    const r = range('2026-01-30', 1);
    expect(buildHeatmap(r, map).streak_days).toBe(30);
    expect(heatmapQueryFrom(r, 400)).toBe(addDays('2026-01-30', -399));
    expect(heatmapQueryFrom(range('2026-01-30', 104), 7)).toBe(range('2026-01-30', 104).from);
  });
});

describe('parameters', () => {
  it('parses weeks and week_starts_on with defaults', () => {
    expect(parseWeeks(undefined)).toBe(52);
    expect(parseWeeks('104')).toBe(104);
    expect(parseWeeks(1)).toBe(1);
    expect(parseWeekStartsOn(undefined)).toBe('sun');
    expect(parseWeekStartsOn('MON')).toBe('mon');
    for (const bad of ['0', '105', '-1', '1.5', 'x', 0, 105])
      expect(() => parseWeeks(bad)).toThrowError(InvalidParamError);
    expect(() => parseWeekStartsOn('tue')).toThrowError(/week_starts_on/);
  });

  it('resolves to from the injected clock in the zone', () => {
    const now = Date.parse('2026-11-20T03:00:00Z');
    expect(resolveHeatmapRange({}, UTC_ZONE, now)).toMatchObject({ to: '2026-11-20', weeks: 52, weekStartsOn: 'sun' });
    expect(
      resolveHeatmapRange({ weeks: '2', week_starts_on: 'mon' }, resolveZone({ tz: 'America/New_York' }), now),
    ).toEqual({
      to: '2026-11-19',
      from: '2026-11-09',
      weeks: 2,
      weekStartsOn: 'mon',
    });
    expect(() => resolveHeatmapRange({ to: '2026-02-30' }, UTC_ZONE, now)).toThrowError(/to must be/);
  });
});

describe('heatmap properties (seed printed)', () => {
  const SEED = 1_122_2026;
  console.info(`heatmap.property: fast-check seed ${SEED}`);
  it('counts every grid day once, grades monotonically and streaks only through active days', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom('sun' as const, 'mon' as const),
        fc.array(fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 15n })), {
          minLength: 140,
          maxLength: 140,
        }),
        (weeks, start, values) => {
          const to = '2026-11-19';
          const r = range(to, weeks, start);
          const map = new Map<string, bigint>();
          values.forEach((v, i) => map.set(addDays(to, -i), v));
          const hm = buildHeatmap(r, map);
          const cells = hm.weeks.flat().filter((c): c is NonNullable<typeof c> => c !== null);
          expect(cells[0]?.day).toBe(r.from);
          expect(cells.at(-1)?.day).toBe(to);
          expect(new Set(cells.map((c) => c.day)).size).toBe(cells.length);
          expect(hm.active_days).toBe(cells.filter((c) => c.value !== '0').length);
          const sorted = [...cells].sort((a, b) =>
            BigInt(a.value) < BigInt(b.value) ? -1 : BigInt(a.value) > BigInt(b.value) ? 1 : 0,
          );
          for (let i = 1; i < sorted.length; i++)
            expect((sorted[i]?.level ?? 0) >= (sorted[i - 1]?.level ?? 0)).toBe(true);
          let streak = 0;
          while (streak < values.length && (values[streak] ?? 0n) > 0n) streak++;
          expect(hm.streak_days).toBe(streak);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });
});
