/** @fileoverview The range picker's presets, resolved to plain dates in the viewer's zone, and the previous period. */
import { addDays, daysBetween, isIsoDate, weekday, type IsoDate } from './dates.js';

export const PRESETS = [
  'today',
  'yesterday',
  '7d',
  '30d',
  'week',
  'month',
  'last-month',
  'year',
  'all',
  'custom',
] as const;
export type Preset = (typeof PRESETS)[number];

export const PRESET_LABELS: Record<Preset, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  '7d': '7 days',
  '30d': '30 days',
  week: 'This week',
  month: 'This month',
  'last-month': 'Last month',
  year: 'This year',
  all: 'All time',
  custom: 'Custom',
};

/** The server reads at most 800 days per request: "all time" is the last 800 days. */
export const MAX_RANGE_DAYS = 800;

export type WeekStart = 'sun' | 'mon';

export interface DateRange {
  from: IsoDate;
  to: IsoDate;
  days: number;
}

export function isPreset(value: string | null): value is Preset {
  return value !== null && (PRESETS as readonly string[]).includes(value);
}

function range(from: IsoDate, to: IsoDate): DateRange {
  return { from, to, days: daysBetween(from, to) };
}

/** The dates a preset covers, ending today (a custom range is clamped to today and to 800 days). */
export function resolveRange(
  preset: Preset,
  today: IsoDate,
  weekStart: WeekStart,
  custom?: { from?: string | null; to?: string | null },
): DateRange {
  switch (preset) {
    case 'today':
      return range(today, today);
    case 'yesterday':
      return range(addDays(today, -1), addDays(today, -1));
    case '7d':
      return range(addDays(today, -6), today);
    case '30d':
      return range(addDays(today, -29), today);
    case 'week': {
      const back = (weekday(today) - (weekStart === 'mon' ? 1 : 0) + 7) % 7;
      return range(addDays(today, -back), today);
    }
    case 'month':
      return range(`${today.slice(0, 8)}01`, today);
    case 'last-month': {
      const lastDay = addDays(`${today.slice(0, 8)}01`, -1);
      return range(`${lastDay.slice(0, 8)}01`, lastDay);
    }
    case 'year':
      return range(`${today.slice(0, 4)}-01-01`, today);
    case 'all':
      return range(addDays(today, -(MAX_RANGE_DAYS - 1)), today);
    case 'custom': {
      let to = isIsoDate(custom?.to) ? custom.to : today;
      let from = isIsoDate(custom?.from) ? custom.from : to;
      if (from > to) [from, to] = [to, from];
      if (daysBetween(from, to) > MAX_RANGE_DAYS) from = addDays(to, -(MAX_RANGE_DAYS - 1));
      return range(from, to);
    }
  }
}

/** The period of the same length just before `r` (what every total is compared with). */
export function previousPeriod(r: DateRange): DateRange {
  return range(addDays(r.from, -r.days), addDays(r.from, -1));
}

/** Relative change from `previous` to `current`: null when there is nothing to compare with. */
export function change(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return (current - previous) / previous;
}
