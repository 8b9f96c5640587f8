/** Named local periods (domain/named-periods.ts): ISO weeks from Monday, calendar months, across year ends and leap days. */
import { describe, expect, it } from 'vitest';
import { namedPeriodRange, type NamedPeriod } from '../../src/domain/named-periods.js';

describe('namedPeriodRange', () => {
  it('resolves every period on a Sunday (the last day of its ISO week)', () => {
    const on = (p: NamedPeriod) => namedPeriodRange(p, '2026-11-01');
    expect(on('today')).toEqual({ from: '2026-11-01', to: '2026-11-01' });
    expect(on('yesterday')).toEqual({ from: '2026-10-31', to: '2026-10-31' });
    expect(on('this_week')).toEqual({ from: '2026-10-26', to: '2026-11-01' });
    expect(on('last_week')).toEqual({ from: '2026-10-19', to: '2026-10-25' });
    expect(on('this_month')).toEqual({ from: '2026-11-01', to: '2026-11-01' });
    expect(on('last_month')).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(on('last_7_days')).toEqual({ from: '2026-10-26', to: '2026-11-01' });
    expect(on('last_30_days')).toEqual({ from: '2026-10-03', to: '2026-11-01' });
  });

  it('starts a week on its Monday, and crosses year ends and leap days', () => {
    expect(namedPeriodRange('this_week', '2026-10-26')).toEqual({ from: '2026-10-26', to: '2026-10-26' });
    expect(namedPeriodRange('last_week', '2027-01-01')).toEqual({ from: '2026-12-21', to: '2026-12-27' });
    expect(namedPeriodRange('last_month', '2027-01-15')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(namedPeriodRange('last_month', '2028-03-31')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(namedPeriodRange('yesterday', '2028-03-01')).toEqual({ from: '2028-02-29', to: '2028-02-29' });
  });
});
