/**
 * @fileoverview Named local periods ("this week", "last month", …) as inclusive local date ranges,
 * so a caller that thinks in words (an agent over MCP) need not work out dates. Weeks start on
 * Monday (ISO), like the leaderboard's. "Today" is an argument: no clock here.
 */
import { addDays, dayOfWeek, epochDayOf, firstEpochDayOfMonth, formatEpochDay, monthIndexOf } from './calendar.js';
import type { LocalDate } from './calendar.js';

export const NAMED_PERIODS = [
  'today',
  'yesterday',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'last_7_days',
  'last_30_days',
] as const;

export type NamedPeriod = (typeof NAMED_PERIODS)[number];

/** The inclusive local range a named period covers on the local day `today`. */
export function namedPeriodRange(period: NamedPeriod, today: LocalDate): { from: LocalDate; to: LocalDate } {
  const day = epochDayOf(today);
  const monday = day - ((dayOfWeek(day) + 6) % 7);
  const month = monthIndexOf(today);
  switch (period) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case 'this_week':
      return { from: formatEpochDay(monday), to: today };
    case 'last_week':
      return { from: formatEpochDay(monday - 7), to: formatEpochDay(monday - 1) };
    case 'this_month':
      return { from: formatEpochDay(firstEpochDayOfMonth(month)), to: today };
    case 'last_month':
      return {
        from: formatEpochDay(firstEpochDayOfMonth(month - 1)),
        to: formatEpochDay(firstEpochDayOfMonth(month) - 1),
      };
    case 'last_7_days':
      return { from: addDays(today, -6), to: today };
    case 'last_30_days':
      return { from: addDays(today, -29), to: today };
  }
}
