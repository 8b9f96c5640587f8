/**
 * @fileoverview Turns the date parameters of the analytics endpoints into validated local
 * ranges plus the UTC instant window SQL filters by. "Today" always comes from the caller's
 * clock (`nowMs`), never from the database or `Date.now()`.
 */

import {
  addDays,
  daysInclusive,
  epochDayOf,
  firstEpochDayOfMonth,
  formatEpochDay,
  formatMonth,
  monthIndexOf,
  parseLocalDate,
  type LocalDate,
} from './calendar.js';
import { InvalidParamError } from './param-error.js';
import { localRangeToInstants, todayIn, type InstantRange, type Zone } from './zones.js';

/** Longest accepted `from`..`to` span in days (inclusive), per the interface (docs/interface.md). */
export const MAX_RANGE_DAYS = 800;
/** Days in the default range (`from` = `to` − 29). */
export const DEFAULT_RANGE_DAYS = 30;
/** Bounds and default of `months` for the monthly view. */
export const MONTHS_LIMITS = Object.freeze({ min: 1, max: 24, default: 24 });

/**
 * Validates a date parameter (`from`, `to`, `day`) and returns it trimmed; blank counts as absent
 * (undefined). A malformed or impossible date throws {@link InvalidParamError} naming `param`.
 */
export function parseDateParam(value: string | null | undefined, param: string): LocalDate | undefined {
  const raw = value?.trim();
  return raw === undefined || raw === '' ? undefined : parseLocalDate(raw, param);
}

/** A validated inclusive local date range and its UTC instant window. */
export interface ResolvedDateRange extends InstantRange {
  readonly from: LocalDate;
  readonly to: LocalDate;
  /** Inclusive count of days from `from` to `to`. */
  readonly days: number;
}

/**
 * Resolves `from`/`to`: `to` defaults to today in the zone, `from` to `to` − 29 days. Malformed or
 * impossible dates, `from` after `to`, and spans over `maxDays` throw {@link InvalidParamError}.
 */
export function resolveDateRange(
  params: { readonly from?: string | null | undefined; readonly to?: string | null | undefined },
  zone: Zone,
  nowMs: number,
  maxDays: number = MAX_RANGE_DAYS,
): ResolvedDateRange {
  const to = parseDateParam(params.to, 'to') ?? todayIn(zone, nowMs);
  const from = parseDateParam(params.from, 'from') ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  const days = daysInclusive(from, to);
  if (days < 1) throw new InvalidParamError('from', `from (${from}) must not be after to (${to})`);
  if (days > maxDays) {
    throw new InvalidParamError('from', `the range ${from}..${to} spans ${days} days; at most ${maxDays} are allowed`);
  }
  return { from, to, days, ...localRangeToInstants(zone, from, to) };
}

/** A validated local day and its UTC instant window. */
export interface ResolvedDay extends InstantRange {
  readonly day: LocalDate;
}

/** Resolves the hourly view's `day` (default today in the zone); a malformed or impossible date throws {@link InvalidParamError} naming `day`. */
export function resolveDay(day: string | null | undefined, zone: Zone, nowMs: number): ResolvedDay {
  const resolved = parseDateParam(day, 'day') ?? todayIn(zone, nowMs);
  return { day: resolved, ...localRangeToInstants(zone, resolved, resolved) };
}

/** A validated monthly window: `months` calendar months ending with `to`'s month. */
export interface ResolvedMonthRange extends InstantRange {
  /** First day of the oldest month. */
  readonly from: LocalDate;
  /** Last day counted (a mid-month `to` truncates the newest month). */
  readonly to: LocalDate;
  readonly months: number;
  /** `YYYY-MM` labels, oldest first, exactly `months` of them. */
  readonly labels: readonly string[];
}

/** Validates `months` (whole number 1..24, default 24); anything else throws {@link InvalidParamError} naming `months`. */
export function parseMonths(value: number | string | null | undefined): number {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return MONTHS_LIMITS.default;
  const n = typeof value === 'number' ? value : /^\+?\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(n) || n < MONTHS_LIMITS.min || n > MONTHS_LIMITS.max) {
    throw new InvalidParamError(
      'months',
      `months must be a whole number from ${MONTHS_LIMITS.min} to ${MONTHS_LIMITS.max} (got ${String(value)})`,
    );
  }
  return n;
}

/** Resolves the monthly view: `to` (default today in the zone) and `months` already parsed by {@link parseMonths}. */
export function resolveMonthRange(
  params: { readonly to?: string | null | undefined; readonly months: number },
  zone: Zone,
  nowMs: number,
): ResolvedMonthRange {
  const to = parseDateParam(params.to, 'to') ?? todayIn(zone, nowMs);
  const lastMonth = monthIndexOf(to);
  const firstMonth = lastMonth - (params.months - 1);
  const from = formatEpochDay(firstEpochDayOfMonth(firstMonth));
  const labels: string[] = [];
  for (let m = firstMonth; m <= lastMonth; m++) labels.push(formatMonth(m));
  return { from, to, months: params.months, labels, ...localRangeToInstants(zone, from, to) };
}

/** Inclusive list of dates from `from` to `to` (empty when `from` is after `to`). */
export function listDates(from: LocalDate, to: LocalDate): LocalDate[] {
  const out: LocalDate[] = [];
  const end = epochDayOf(to);
  for (let d = epochDayOf(from); d <= end; d++) out.push(formatEpochDay(d));
  return out;
}
