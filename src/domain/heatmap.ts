/**
 * @fileoverview The activity heatmap exactly as the interface's "Heatmap" section defines it (docs/interface.md):
 * a grid of `weeks` columns × 7 days starting on `week_starts_on`, values = billable tokens per
 * local day, levels from percentile thresholds of the active days, plus active and streak counts.
 */

import {
  addDays,
  dayOfWeek,
  epochDayOf,
  formatEpochDay,
  formatEpochDays,
  parseLocalDate,
  type LocalDate,
} from './calendar.js';
import { InvalidParamError } from './param-error.js';
import { todayIn, type Zone } from './zones.js';

/** First day of a heatmap week. */
export type WeekStartsOn = 'sun' | 'mon';

/** Bounds and default of `weeks`. */
export const WEEKS_LIMITS = Object.freeze({ min: 1, max: 104, default: 52 });

/** A heatmap cell; `value` is the day's billable tokens as a decimal string. */
export interface HeatmapCell {
  readonly day: LocalDate;
  readonly value: string;
  readonly level: 0 | 1 | 2 | 3 | 4;
}

/** Level thresholds as decimal strings ("0" when there are no active days). */
export interface HeatmapThresholds {
  readonly t1: string;
  readonly t2: string;
  readonly t3: string;
}

/** The heatmap response body (minus any debug block). */
export interface Heatmap {
  readonly from: LocalDate;
  readonly to: LocalDate;
  readonly week_starts_on: WeekStartsOn;
  readonly thresholds: HeatmapThresholds;
  readonly active_days: number;
  readonly streak_days: number;
  /** `weeks` columns of 7 cells each; cells after `to` are null. */
  readonly weeks: (HeatmapCell | null)[][];
}

/** Validates `week_starts_on` (case-insensitive `sun`|`mon`, default `sun`); anything else throws {@link InvalidParamError}. */
export function parseWeekStartsOn(value: string | null | undefined): WeekStartsOn {
  if (value === undefined || value === null || value.trim() === '') return 'sun';
  const v = value.trim().toLowerCase();
  if (v === 'sun' || v === 'mon') return v;
  throw new InvalidParamError('week_starts_on', `week_starts_on must be "sun" or "mon" (got "${value}")`);
}

/** Validates `weeks` (whole number 1..104, default 52); anything else throws {@link InvalidParamError}. */
export function parseWeeks(value: number | string | null | undefined): number {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return WEEKS_LIMITS.default;
  const n = typeof value === 'number' ? value : /^\+?\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(n) || n < WEEKS_LIMITS.min || n > WEEKS_LIMITS.max) {
    throw new InvalidParamError(
      'weeks',
      `weeks must be a whole number from ${WEEKS_LIMITS.min} to ${WEEKS_LIMITS.max} (got ${String(value)})`,
    );
  }
  return n;
}

/** First day of the grid: the `weekStartsOn` day on or before `to`, minus 7·(weeks−1) days. */
export function heatmapGridStart(to: LocalDate, weeks: number, weekStartsOn: WeekStartsOn): LocalDate {
  const toDay = epochDayOf(to);
  const startDow = weekStartsOn === 'sun' ? 0 : 1;
  const back = (dayOfWeek(toDay) - startDow + 7) % 7;
  return formatEpochDay(toDay - back - 7 * (weeks - 1));
}

/** The resolved heatmap window: validated `to` (default today in the zone), grid start `from`, and the parsed options. */
export interface HeatmapRange {
  readonly from: LocalDate;
  readonly to: LocalDate;
  readonly weeks: number;
  readonly weekStartsOn: WeekStartsOn;
}

/** Resolves the heatmap's `to`, `weeks` and `week_starts_on` parameters, throwing {@link InvalidParamError} for bad ones. */
export function resolveHeatmapRange(
  params: {
    readonly to?: string | null | undefined;
    readonly weeks?: number | string | null | undefined;
    readonly week_starts_on?: string | null | undefined;
  },
  zone: Zone,
  nowMs: number,
): HeatmapRange {
  const weeks = parseWeeks(params.weeks);
  const weekStartsOn = parseWeekStartsOn(params.week_starts_on);
  const rawTo = params.to?.trim();
  const to = rawTo === undefined || rawTo === '' ? todayIn(zone, nowMs) : parseLocalDate(rawTo, 'to');
  return { from: heatmapGridStart(to, weeks, weekStartsOn), to, weeks, weekStartsOn };
}

/** Level of a value against the thresholds: 0 for no usage, then 1..4 by ≤ t1, ≤ t2, ≤ t3, above. */
export function heatmapLevel(value: bigint, t1: bigint, t2: bigint, t3: bigint): 0 | 1 | 2 | 3 | 4 {
  if (value <= 0n) return 0;
  if (value <= t1) return 1;
  if (value <= t2) return 2;
  if (value <= t3) return 3;
  return 4;
}

/** Thresholds from active-day values: the sorted values at index ⌊(n−1)·q⌋ for q = .5, .75, .9 (all 0 when none). */
export function heatmapThresholds(activeValues: readonly bigint[]): { t1: bigint; t2: bigint; t3: bigint } {
  const sorted = [...activeValues].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const n = sorted.length;
  if (n === 0) return { t1: 0n, t2: 0n, t3: 0n };
  // Integer arithmetic for ⌊(n−1)·q⌋ so 0.9·k never rounds the wrong way.
  const at = (num: number, den: number): bigint => sorted[Math.floor(((n - 1) * num) / den)] as bigint;
  return { t1: at(1, 2), t2: at(3, 4), t3: at(9, 10) };
}

/** Consecutive days with usage ending at `to` (0 when `to` itself has none), counted back through the days present in `billableByDay`. */
export function streakDays(billableByDay: ReadonlyMap<LocalDate, bigint>, to: LocalDate): number {
  let day = epochDayOf(to);
  let streak = 0;
  for (;;) {
    const v = billableByDay.get(formatEpochDay(day));
    if (v === undefined || v <= 0n) return streak;
    streak++;
    day--;
  }
}

/**
 * Builds the heatmap from billable tokens per local day. Days missing from the map count as zero.
 * `active_days` and the thresholds use the grid days up to `to`; the streak counts back from `to`
 * through every day the map holds (supply days before the grid for streaks longer than the grid).
 */
export function buildHeatmap(range: HeatmapRange, billableByDay: ReadonlyMap<LocalDate, bigint>): Heatmap {
  return heatmapGrid(range, (day) => billableByDay.get(formatEpochDay(day)) ?? 0n, streakDays(billableByDay, range.to));
}

/** Billable tokens of consecutive local days: `values[i]` is epoch day `firstDay + i`. */
export interface DayValues {
  readonly firstDay: number;
  readonly values: readonly bigint[];
}

/** {@link streakDays} over consecutive days: days outside `days` count as empty. */
export function streakDaysOf(days: DayValues, to: LocalDate): number {
  let i = epochDayOf(to) - days.firstDay;
  let streak = 0;
  while (i >= 0 && i < days.values.length && (days.values[i] as bigint) > 0n) {
    streak++;
    i--;
  }
  return streak;
}

/** {@link buildHeatmap} from consecutive days (the same answer as from a map holding those days). */
export function buildHeatmapFromDays(range: HeatmapRange, days: DayValues): Heatmap {
  const { firstDay, values } = days;
  return heatmapGrid(range, (day) => values[day - firstDay] ?? 0n, streakDaysOf(days, range.to));
}

function heatmapGrid(range: HeatmapRange, valueOf: (epochDay: number) => bigint, streak: number): Heatmap {
  const startDay = epochDayOf(range.from);
  const toDay = epochDayOf(range.to);
  const values: bigint[] = [];
  const active: bigint[] = [];
  for (let d = startDay; d <= toDay; d++) {
    const v = valueOf(d);
    values.push(v);
    if (v > 0n) active.push(v);
  }
  const { t1, t2, t3 } = heatmapThresholds(active);
  const labels = formatEpochDays(startDay, values.length);
  const weeks: (HeatmapCell | null)[][] = [];
  for (let w = 0; w < range.weeks; w++) {
    const column: (HeatmapCell | null)[] = [];
    for (let i = 0; i < 7; i++) {
      const offset = w * 7 + i;
      if (startDay + offset > toDay) {
        column.push(null);
        continue;
      }
      const v = values[offset] ?? 0n;
      column.push({ day: labels[offset] as LocalDate, value: v.toString(), level: heatmapLevel(v, t1, t2, t3) });
    }
    weeks.push(column);
  }
  return {
    from: range.from,
    to: range.to,
    week_starts_on: range.weekStartsOn,
    thresholds: { t1: t1.toString(), t2: t2.toString(), t3: t3.toString() },
    active_days: active.length,
    streak_days: streak,
    weeks,
  };
}

/** The first day the heatmap query should load so that streaks up to `maxStreakDays` long are counted (never after the grid start). */
export function heatmapQueryFrom(range: HeatmapRange, maxStreakDays: number): LocalDate {
  const streakStart = addDays(range.to, -(maxStreakDays - 1));
  return streakStart < range.from ? streakStart : range.from;
}
