import { describe, expect, it } from 'vitest';
import { toCsv } from '../../web/src/lib/csv.js';
import {
  addDays,
  halfHoursInDay,
  localMidnightUtc,
  todayIn,
  weekday,
  zoneLabel,
  zoneOffsetLabel,
} from '../../web/src/lib/dates.js';
import { exactCount, humanChange, humanCount, humanUsd, countdown, storageShare } from '../../web/src/lib/format.js';
import { change, previousPeriod, resolveRange } from '../../web/src/lib/ranges.js';
import {
  cacheShare,
  layersWithRest,
  slotLabelWithOffset,
  sortRows,
  stack,
  unsyncedSlots,
  grainOf,
  groupSlots,
  estimateSlotCosts,
  foldEmptyRuns,
} from '../../web/src/lib/series.js';

describe('dashboard ranges', () => {
  const today = '2026-03-11'; // a Wednesday
  it('resolves every preset to dates ending today', () => {
    expect(weekday(today)).toBe(3);
    expect(resolveRange('today', today, 'sun')).toEqual({ from: today, to: today, days: 1 });
    expect(resolveRange('yesterday', today, 'sun')).toEqual({ from: '2026-03-10', to: '2026-03-10', days: 1 });
    expect(resolveRange('7d', today, 'sun')).toEqual({ from: '2026-03-05', to: today, days: 7 });
    expect(resolveRange('30d', today, 'sun').from).toBe('2026-02-10');
    expect(resolveRange('week', today, 'sun')).toEqual({ from: '2026-03-08', to: today, days: 4 });
    expect(resolveRange('week', today, 'mon')).toEqual({ from: '2026-03-09', to: today, days: 3 });
    expect(resolveRange('week', '2026-03-08', 'mon').from).toBe('2026-03-02'); // a Sunday, weeks from Monday
    expect(resolveRange('month', today, 'sun')).toEqual({ from: '2026-03-01', to: today, days: 11 });
    expect(resolveRange('last-month', today, 'sun')).toEqual({ from: '2026-02-01', to: '2026-02-28', days: 28 });
    expect(resolveRange('last-month', '2026-01-15', 'sun')).toEqual({ from: '2025-12-01', to: '2025-12-31', days: 31 });
    expect(resolveRange('year', today, 'sun')).toEqual({ from: '2026-01-01', to: today, days: 70 });
    expect(resolveRange('all', today, 'sun').days).toBe(800);
  });

  it('takes a custom range as given, swapped when reversed, clamped to 800 days, today when invalid', () => {
    expect(resolveRange('custom', today, 'sun', { from: '2026-03-08', to: '2026-03-08' })).toEqual({
      from: '2026-03-08',
      to: '2026-03-08',
      days: 1,
    });
    expect(resolveRange('custom', today, 'sun', { from: '2026-03-09', to: '2026-03-01' })).toMatchObject({
      from: '2026-03-01',
      to: '2026-03-09',
    });
    expect(resolveRange('custom', today, 'sun', { from: '2020-01-01', to: '2026-03-01' }).days).toBe(800);
    expect(resolveRange('custom', today, 'sun', { from: '2026-02-30', to: 'x' })).toEqual({
      from: today,
      to: today,
      days: 1,
    });
  });

  it('compares with the previous period of the same length', () => {
    expect(previousPeriod({ from: '2026-03-05', to: '2026-03-11', days: 7 })).toEqual({
      from: '2026-02-26',
      to: '2026-03-04',
      days: 7,
    });
    expect(previousPeriod({ from: '2026-03-01', to: '2026-03-01', days: 1 })).toEqual({
      from: '2026-02-28',
      to: '2026-02-28',
      days: 1,
    });
    expect(change(150, 100)).toBe(0.5);
    expect(change(0, 0)).toBe(0);
    expect(change(5, 0)).toBeNull();
  });
});

describe('dashboard zones', () => {
  it('labels zones with their offset at that instant', () => {
    const winter = Date.UTC(2026, 0, 15);
    const summer = Date.UTC(2026, 6, 15);
    expect(zoneLabel('America/New_York', winter)).toBe('America/New York (UTC−5)');
    expect(zoneLabel('America/New_York', summer)).toBe('America/New York (UTC−4)');
    expect(zoneOffsetLabel('Asia/Kolkata', winter)).toBe('UTC+5:30');
    expect(zoneLabel('UTC', winter)).toBe('UTC');
    expect(todayIn('Pacific/Auckland', Date.UTC(2026, 0, 15, 12))).toBe('2026-01-16');
  });

  it('counts the half-hours of DST days: 46 and 50 in New York, 47 and 49 on Lord Howe Island', () => {
    expect(halfHoursInDay('2026-03-08', 'America/New_York')).toBe(46);
    expect(halfHoursInDay('2026-11-01', 'America/New_York')).toBe(50);
    expect(halfHoursInDay('2026-03-09', 'America/New_York')).toBe(48);
    expect(halfHoursInDay('2026-04-05', 'Australia/Lord_Howe')).toBe(49);
    expect(localMidnightUtc('2026-03-08', 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 5));
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
  });

  it('labels DST slots with their offset and marks slots after the last sync', () => {
    expect(slotLabelWithOffset('2026-11-01T01:30:00-04:00')).toBe('01:30 (UTC−4)');
    expect(slotLabelWithOffset('2026-11-01T01:30:00-05:00')).toBe('01:30 (UTC−5)');
    expect(slotLabelWithOffset('2026-03-08T05:30:00+05:30')).toBe('05:30 (UTC+5:30)');
    const rows = ['2026-03-08T10:00:00Z', '2026-03-08T10:30:00Z', '2026-03-08T11:00:00Z', '2026-03-08T11:30:00Z'].map(
      (hour_start) => ({ hour_start }),
    );
    // The half-hour the last sync reached is synced; later ones that have begun are not yet.
    expect(unsyncedSlots(rows, '2026-03-08T10:40:00Z', Date.UTC(2026, 2, 8, 11, 40))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(unsyncedSlots(rows, '2026-03-08T11:00:00Z', Date.UTC(2026, 2, 8, 11, 10))).toEqual([
      false,
      false,
      true,
      false,
    ]);
    // A slot with tokens is never covered.
    expect(
      unsyncedSlots(
        [{ hour_start: '2026-03-08T11:00:00Z', total_tokens: '5' }],
        '2026-03-08T10:40:00Z',
        Date.UTC(2026, 2, 8, 12),
      ),
    ).toEqual([false]);
    expect(unsyncedSlots(rows, null, Date.UTC(2026, 2, 8, 10, 10))).toEqual([true, false, false, false]);
  });
});

describe('dashboard numbers', () => {
  it('shortens counts and keeps exact values', () => {
    expect(humanCount(999)).toBe('999');
    expect(humanCount(1240)).toBe('1.24K');
    expect(humanCount('1240000')).toBe('1.24M');
    expect(humanCount(12_345_678_901)).toBe('12.3B');
    expect(humanCount(999_999)).toBe('1M');
    expect(humanCount(0)).toBe('0');
    expect(exactCount('9007199254740993')).toBe('9,007,199,254,740,993'); // past 2^53, no rounding
    expect(humanUsd('671.590000')).toBe('$671.59');
    expect(humanUsd(0)).toBe('$0.00');
    expect(humanUsd('0.004213')).toBe('$0.0042');
    expect(humanUsd(1_234_567)).toBe('$1.23M');
    expect(humanChange(0.125)).toBe('+13 %');
    expect(humanChange(-0.034)).toBe('−3.4 %');
    expect(humanChange(null)).toBe('new');
    expect(countdown(299_500)).toBe('05:00');
  });

  it('writes CSV of exactly the rows given, quoting where needed', () => {
    expect(
      toCsv(
        ['day', 'total_tokens'],
        [
          ['2026-03-08', '7500'],
          ['a,"b"', 1],
        ],
      ),
    ).toBe('day,total_tokens\r\n2026-03-08,7500\r\n"a,""b""",1\r\n');
  });

  it('writes a text cell that begins like a formula with a quote before it; numbers as they are', () => {
    expect(
      toCsv(
        ['name', 'n'],
        [
          ['=HYPERLINK("http://x","y")', -1],
          ['+cmd', 0],
          ['-2+3', 2.5],
          ['@sum(a1)', 3],
          ['\tlead', 4],
          ['\rlead', 5],
          ['a=b', 6],
        ],
      ),
    ).toBe(
      'name,n\r\n' +
        `"'=HYPERLINK(""http://x"",""y"")",-1\r\n` +
        "'+cmd,0\r\n" +
        "'-2+3,2.5\r\n" +
        "'@sum(a1),3\r\n" +
        "'\tlead,4\r\n" +
        `"'\rlead",5\r\n` +
        'a=b,6\r\n',
    );
  });

  it("stacks layers, sorts rows exactly and counts cache hits by each source's convention", () => {
    const layers = layersWithRest([10, 5], [{ key: 'codex', values: [6, 5] }]);
    expect(layers).toEqual([
      { key: 'codex', values: [6, 5] },
      { key: 'other', values: [4, 0] },
    ]);
    expect(stack(layers)).toEqual([
      [6, 5],
      [10, 5],
    ]);
    const row = (day: string, total: string) => ({
      day,
      total_tokens: total,
      billable_total_tokens: total,
      input_tokens: '0',
      cached_input_tokens: '0',
      output_tokens: '0',
      reasoning_output_tokens: '0',
    });
    const rows = [row('2026-01-01', '9007199254740993'), row('2026-01-02', '9007199254740992'), row('2026-01-03', '5')];
    expect(sortRows(rows, 'total_tokens', true).map((r) => r.day)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
    expect(sortRows(rows, 'day', true).map((r) => r.day)).toEqual(['2026-01-03', '2026-01-02', '2026-01-01']);
    expect(
      cacheShare([
        { source: 'codex', totals: { input_tokens: '100', cached_input_tokens: '40' } },
        { source: 'claude', totals: { input_tokens: '10', cached_input_tokens: '50' } },
      ]),
    ).toBeCloseTo(90 / 160);
  });
});

describe('dashboard storage share', () => {
  it('says how much of the stored-bucket bound is used', () => {
    expect(storageShare(1_200_000, 5_000_000)).toBe('1.2M of 5M buckets (24 %)');
    expect(storageShare(0, 5_000_000)).toBe('0 of 5M buckets (0 %)');
    expect(storageShare(12, 5_000_000)).toBe('12 of 5M buckets (< 1 %)');
    expect(storageShare(5_000_000, 5_000_000)).toBe('5M of 5M buckets (100 %)');
    expect(storageShare(4_999_999, 5_000_000)).toBe('5M of 5M buckets (99 %)');
  });
});

describe('dashboard trend grain', () => {
  it('draws days up to three months, then weeks, then months, summing each slot', () => {
    expect([grainOf(7), grainOf(92), grainOf(93), grainOf(371), grainOf(800)]).toEqual([
      'day',
      'day',
      'week',
      'week',
      'month',
    ]);
    // 2026-03-01 is a Sunday.
    const days = ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02', '2026-03-08'];
    const layers = [{ key: 'codex', values: [1, 2, 3, 4, 5] }];
    expect(groupSlots(days, layers, 'week', 0)).toEqual({
      xs: ['2026-02-22', '2026-03-01', '2026-03-08'],
      layers: [{ key: 'codex', values: [3, 7, 5] }],
    });
    expect(groupSlots(days, layers, 'week', 1).xs).toEqual(['2026-02-23', '2026-03-02']);
    expect(groupSlots(days, layers, 'month', 0)).toEqual({
      xs: ['2026-02-01', '2026-03-01'],
      layers: [{ key: 'codex', values: [3, 12] }],
    });
  });
});

describe('dashboard daily cost and empty days', () => {
  it('estimates each day from its layers and adds up to the exact total', () => {
    const costs = estimateSlotCosts(
      [
        { key: 'a', values: [10, 0, 30] },
        { key: 'b', values: [0, 20, 0] },
      ],
      [1, 2],
      8,
    );
    expect(costs).toEqual([1, 4, 3]);
    expect(estimateSlotCosts([{ key: 'a', values: [0, 0] }], [1], 0)).toEqual([0, 0]);
  });

  it('folds runs of empty days into one entry', () => {
    const row = (day: string, total_tokens: string) => ({ day, total_tokens });
    const folded = foldEmptyRuns([
      row('2026-03-01', '0'),
      row('2026-03-02', '0'),
      row('2026-03-03', '5'),
      row('2026-03-04', '0'),
      row('2026-03-05', '7'),
    ]);
    expect(folded).toEqual([
      { gap: { from: '2026-03-01', to: '2026-03-02', days: 2 } },
      { row: row('2026-03-03', '5') },
      { gap: { from: '2026-03-04', to: '2026-03-04', days: 1 } },
      { row: row('2026-03-05', '7') },
    ]);
  });
});
