/**
 * @fileoverview Proleptic Gregorian calendar arithmetic on plain dates, no zones involved.
 *
 * A plain date travels as `YYYY-MM-DD` text (a {@link LocalDate}) at the edges and as an
 * epoch day number (days since 1970-01-01) inside folds, where integer arithmetic is cheap.
 * Conversions use Howard Hinnant's days-from-civil algorithms, which are exact for every
 * Gregorian date.
 */

import { InvalidParamError } from './param-error.js';

/** A calendar date written `YYYY-MM-DD`; which zone it is local to is the caller's business. */
export type LocalDate = string;

/** Milliseconds in a 24-hour UTC day. */
export const DAY_MS = 86_400_000;

/** Milliseconds in one half-hour bucket. */
export const HALF_HOUR_MS = 1_800_000;

/** UTC days a `usage_blocks` row sums: block = floor(epoch day / 16) (migration 0027). */
export const BLOCK_DAYS = 16;

/** Milliseconds a `team_usage_spans` row sums: the team's half-hours of a 4-hour span of a UTC day (migration 0030). */
export const SPAN_MS = 14_400_000;

/** The earliest half-hour any upload may carry (2020-01-01T00:00Z): no agent logged tokens before. */
export const EARLIEST_HOUR_START = Date.UTC(2020, 0, 1);

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of the civil date y-m-d (month 1..12); exact for the whole proleptic Gregorian calendar. */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The civil date `{y, m, d}` (month 1..12) of an epoch day number; inverse of {@link daysFromCivil}. */
export function civilFromDays(epochDay: number): { y: number; m: number; d: number } {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

/** Number of days in month m (1..12) of year y, leap years included. */
export function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Earliest year a request date may name (keeps every derived range, e.g. 104 heatmap weeks back, in four-digit years). */
export const MIN_YEAR = 1900;

/** True when `value` is a well-formed, existing `YYYY-MM-DD` date with a year from {@link MIN_YEAR} to 9999. */
export function isValidLocalDate(value: string): boolean {
  const match = DATE_RE.exec(value);
  if (!match) return false;
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  return y >= MIN_YEAR && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** Validates a date parameter and returns it; throws {@link InvalidParamError} naming `param` when malformed, impossible (e.g. 2025-02-30) or before {@link MIN_YEAR}. */
export function parseLocalDate(value: string, param: string): LocalDate {
  if (!isValidLocalDate(value)) {
    throw new InvalidParamError(
      param,
      `${param} must be a real calendar date written YYYY-MM-DD, ${MIN_YEAR} or later (got "${value}")`,
    );
  }
  return value;
}

/** Epoch day number of a valid `YYYY-MM-DD` date; the input must already be validated. */
export function epochDayOf(date: LocalDate): number {
  return daysFromCivil(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function pad4(n: number): string {
  return String(n).padStart(4, '0');
}

/** The `YYYY-MM-DD` text of an epoch day number. */
export function formatEpochDay(epochDay: number): LocalDate {
  const { y, m, d } = civilFromDays(epochDay);
  return `${pad4(y)}-${pad2(m)}-${pad2(d)}`;
}

const DAY_TEXT = Array.from({ length: 32 }, (_, d) => pad2(d));

/** The `YYYY-MM-DD` texts of `n` consecutive epoch days from `firstDay` (as {@link formatEpochDay}, one month prefix per month). */
export function formatEpochDays(firstDay: number, n: number): LocalDate[] {
  const out = new Array<LocalDate>(Math.max(0, n));
  if (n <= 0) return out;
  let { y, m, d } = civilFromDays(firstDay);
  let prefix = `${pad4(y)}-${pad2(m)}-`;
  let monthDays = daysInMonth(y, m);
  for (let i = 0; i < n; i++) {
    out[i] = prefix + (DAY_TEXT[d] as string);
    if (++d > monthDays) {
      d = 1;
      if (++m > 12) {
        m = 1;
        y++;
      }
      prefix = `${pad4(y)}-${pad2(m)}-`;
      monthDays = daysInMonth(y, m);
    }
  }
  return out;
}

/** The date `n` days after `date` (negative `n` goes back). */
export function addDays(date: LocalDate, n: number): LocalDate {
  return formatEpochDay(epochDayOf(date) + n);
}

/** Inclusive count of days from `from` to `to` (1 when equal, ≤ 0 when `from` is after `to`). */
export function daysInclusive(from: LocalDate, to: LocalDate): number {
  return epochDayOf(to) - epochDayOf(from) + 1;
}

/** Day of the week of an epoch day: 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function dayOfWeek(epochDay: number): number {
  return (((epochDay + 4) % 7) + 7) % 7;
}

/** A month as a single integer, `year * 12 + (month − 1)`, so month arithmetic is addition. */
export type MonthIndex = number;

/** The {@link MonthIndex} of the month containing `date`. */
export function monthIndexOf(date: LocalDate): MonthIndex {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

/** The {@link MonthIndex} of the month containing an epoch day. */
export function monthIndexOfEpochDay(epochDay: number): MonthIndex {
  const { y, m } = civilFromDays(epochDay);
  return y * 12 + m - 1;
}

/** Epoch day of the first day of a month. */
export function firstEpochDayOfMonth(month: MonthIndex): number {
  return daysFromCivil(Math.floor(month / 12), (month % 12) + 1, 1);
}

/** The `YYYY-MM` label of a month. */
export function formatMonth(month: MonthIndex): string {
  return `${pad4(Math.floor(month / 12))}-${pad2((month % 12) + 1)}`;
}
