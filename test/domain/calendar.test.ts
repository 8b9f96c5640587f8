import { describe, expect, it } from 'vitest';
import {
  addDays,
  civilFromDays,
  dayOfWeek,
  daysFromCivil,
  daysInclusive,
  epochDayOf,
  firstEpochDayOfMonth,
  formatEpochDay,
  formatEpochDays,
  formatMonth,
  isValidLocalDate,
  monthIndexOf,
  parseLocalDate,
} from '../../src/domain/calendar.js';
import { InvalidParamError } from '../../src/domain/param-error.js';

describe('calendar', () => {
  it('round-trips epoch days through civil dates across four centuries', () => {
    for (let d = daysFromCivil(1899, 12, 25); d < daysFromCivil(2301, 1, 5); d += 7) {
      const { y, m, d: dd } = civilFromDays(d);
      expect(daysFromCivil(y, m, dd)).toBe(d);
    }
  });

  it('agrees with Date.UTC on sample dates', () => {
    for (const s of ['1970-01-01', '2000-02-29', '2024-02-29', '2026-03-08', '2100-03-01', '1969-12-31']) {
      expect(epochDayOf(s) * 86_400_000).toBe(Date.parse(`${s}T00:00:00Z`));
      expect(formatEpochDay(epochDayOf(s))).toBe(s);
    }
  });

  it('accepts real dates and rejects malformed or impossible ones', () => {
    expect(isValidLocalDate('2024-02-29')).toBe(true);
    for (const bad of [
      '2025-02-29',
      '2025-02-30',
      '2025-13-01',
      '2025-00-10',
      '2025-04-31',
      '2025-1-01',
      '20250101',
      '2025-01-01T00:00',
      ' 2025-01-01',
      '0000-01-01',
      'abcd-ef-gh',
      '',
    ]) {
      expect(isValidLocalDate(bad), bad).toBe(false);
    }
    expect(() => parseLocalDate('2025-02-30', 'from')).toThrowError(InvalidParamError);
    try {
      parseLocalDate('nope', 'to');
    } catch (e) {
      expect((e as InvalidParamError).param).toBe('to');
    }
  });

  it('does day and month arithmetic', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysInclusive('2026-01-01', '2026-12-31')).toBe(365);
    expect(daysInclusive('2026-01-02', '2026-01-01')).toBe(0);
    expect(dayOfWeek(epochDayOf('1970-01-01'))).toBe(4);
    expect(dayOfWeek(epochDayOf('2026-11-22'))).toBe(0); // a Sunday
    const m = monthIndexOf('2026-03-15');
    expect(formatMonth(m - 3)).toBe('2025-12');
    expect(formatEpochDay(firstEpochDayOfMonth(m + 10))).toBe('2027-01-01');
  });

  it('formats runs of consecutive days as formatEpochDay does, across months, leap days and centuries', () => {
    for (const [start, n] of [
      ['1900-01-01', 800],
      ['1999-12-01', 500],
      ['2024-02-20', 20],
      ['2099-12-25', 900],
      ['9997-06-30', 900],
    ] as const) {
      const first = epochDayOf(start);
      expect(formatEpochDays(first, n)).toEqual(Array.from({ length: n }, (_, i) => formatEpochDay(first + i)));
    }
    expect(formatEpochDays(epochDayOf('2026-01-01'), 0)).toEqual([]);
  });
});
