import { describe, expect, it } from 'vitest';
import { InvalidParamError } from '../../src/domain/param-error.js';
import { listDates, parseMonths, resolveDateRange, resolveDay, resolveMonthRange } from '../../src/domain/ranges.js';
import { UTC_ZONE, resolveZone } from '../../src/domain/zones.js';

const now = Date.parse('2026-03-08T04:30:00Z');
const ny = resolveZone({ tz: 'America/New_York' });

function paramOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof InvalidParamError) return e.param;
    throw e;
  }
  return undefined;
}

describe('resolveDateRange', () => {
  it('defaults to the 30 days ending today in the zone', () => {
    expect(resolveDateRange({}, UTC_ZONE, now)).toMatchObject({ from: '2026-02-07', to: '2026-03-08', days: 30 });
    const r = resolveDateRange({}, ny, now);
    expect(r).toMatchObject({ from: '2026-02-06', to: '2026-03-07', days: 30 });
    expect(r.startMs).toBe(Date.parse('2026-02-06T05:00:00Z'));
    expect(r.endMs).toBe(Date.parse('2026-03-08T05:00:00Z'));
  });

  it('derives from from a given to', () => {
    expect(resolveDateRange({ to: '2026-01-31' }, UTC_ZONE, now)).toMatchObject({
      from: '2026-01-02',
      to: '2026-01-31',
    });
    expect(resolveDateRange({ from: '2026-03-01', to: '' }, UTC_ZONE, now)).toMatchObject({
      from: '2026-03-01',
      to: '2026-03-08',
      days: 8,
    });
  });

  it('rejects bad dates, reversed ranges and spans over 800 days', () => {
    expect(paramOf(() => resolveDateRange({ from: '2026-02-30' }, UTC_ZONE, now))).toBe('from');
    expect(paramOf(() => resolveDateRange({ to: '2026/03/01' }, UTC_ZONE, now))).toBe('to');
    expect(paramOf(() => resolveDateRange({ from: '2026-03-02', to: '2026-03-01' }, UTC_ZONE, now))).toBe('from');
    expect(resolveDateRange({ from: '2024-01-01', to: '2026-03-10' }, UTC_ZONE, now).days).toBe(800);
    expect(paramOf(() => resolveDateRange({ from: '2023-12-31', to: '2026-03-10' }, UTC_ZONE, now))).toBe('from');
    expect(paramOf(() => resolveDateRange({ from: '1899-12-31', to: '1900-01-05' }, UTC_ZONE, now))).toBe('from');
  });

  it('never fails on extreme but valid dates', () => {
    for (const zone of [UTC_ZONE, ny, resolveZone({ tz_offset_minutes: -720 })]) {
      const r = resolveDateRange({ from: '9999-12-01', to: '9999-12-31' }, zone, now);
      expect(r.endMs - r.startMs).toBe(31 * 86_400_000);
      expect(resolveDateRange({ from: '1900-01-01', to: '1900-01-01' }, zone, now).days).toBe(1);
      expect(resolveMonthRange({ to: '1900-01-01', months: 24 }, zone, now).labels[0]).toBe('1898-02');
    }
  });
});

describe('resolveDay and months', () => {
  it('resolves the hourly day', () => {
    expect(resolveDay(undefined, ny, now)).toMatchObject({ day: '2026-03-07' });
    expect(resolveDay('2026-03-08', ny, now)).toEqual({
      day: '2026-03-08',
      startMs: Date.parse('2026-03-08T05:00:00Z'),
      endMs: Date.parse('2026-03-09T04:00:00Z'),
    });
    expect(paramOf(() => resolveDay('2026-3-8', ny, now))).toBe('day');
  });

  it('resolves months ending at to', () => {
    const r = resolveMonthRange({ to: '2026-03-15', months: 3 }, UTC_ZONE, now);
    expect(r).toMatchObject({
      from: '2026-01-01',
      to: '2026-03-15',
      months: 3,
      labels: ['2026-01', '2026-02', '2026-03'],
    });
    expect(r.endMs).toBe(Date.parse('2026-03-16T00:00:00Z'));
    expect(resolveMonthRange({ months: 24 }, UTC_ZONE, now).labels[0]).toBe('2024-04');
    expect(parseMonths(undefined)).toBe(24);
    expect(parseMonths('1')).toBe(1);
    for (const bad of ['0', '25', '-3', 'x', 2.5]) expect(paramOf(() => parseMonths(bad))).toBe('months');
  });

  it('lists dates inclusively', () => {
    expect(listDates('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(listDates('2024-03-01', '2024-02-28')).toEqual([]);
  });
});
