/**
 * @fileoverview Folds half-hour rollup rows into the local days, months and half-hours the
 * analytics endpoints return. Each row counts on the local day/half-hour/month of its
 * `hourStart` (docs/time-zones.md). The zone is consulted once per DST transition through an
 * {@link OffsetTimeline}; {@link localDayIndexes} and {@link localMonthIndexes} are the one place
 * that assigns instants, and the folds add counts by those indexes: six bigint additions per
 * {@link UsageRow}, or six double additions per row in columns ({@link UsageColumns}, the
 * service's path). Rows need not be sorted; rows outside the requested local range are ignored.
 */

import {
  DAY_MS,
  HALF_HOUR_MS,
  epochDayOf,
  firstEpochDayOfMonth,
  formatEpochDay,
  formatEpochDays,
  formatMonth,
  monthIndexOf,
  type LocalDate,
} from './calendar.js';
import { billableAt, sumByIndex, totalsWireAt, type CountArray, type UsageColumns } from './usage-columns.js';
import { addCounts, toTokenCountsWire, zeroCounts, type TokenCounts, type TokenCountsWire } from './token-counts.js';
import type { UsageRow } from './usage-row.js';
import { halfHourSlots, offsetTimeline, type OffsetTimeline, type Zone } from './zones.js';

/** Widest offsets in use (UTC−12 … UTC+14) plus slack; bounds the instant window a local range can touch. */
const MAX_WEST_MS = 13 * 3_600_000;
const MAX_EAST_MS = 15 * 3_600_000;

function timelineForDays(zone: Zone, fromDay: number, toDay: number): OffsetTimeline {
  return offsetTimeline(zone, fromDay * DAY_MS - MAX_EAST_MS, (toDay + 1) * DAY_MS + MAX_WEST_MS);
}

/** One local day's totals. */
export interface DayRow {
  readonly day: LocalDate;
  readonly totals: TokenCounts;
}

/**
 * Index of the local day (0 = `from`) each instant falls on, or −1 outside `from` … `to`: the one
 * place that assigns rows and pieces to local days. Instants usually arrive sorted, so the offset
 * segment rarely changes.
 */
export function localDayIndexes(hourStarts: readonly number[], zone: Zone, from: LocalDate, to: LocalDate): Int32Array {
  const fromDay = epochDayOf(from);
  const toDay = epochDayOf(to);
  const n = toDay - fromDay + 1;
  const out = new Int32Array(hourStarts.length);
  const timeline = timelineForDays(zone, fromDay, toDay);
  const starts = timeline.segmentStarts;
  const offsets = timeline.segmentOffsets;
  let segStart = starts[0] as number;
  let segEnd = starts[1] ?? Infinity;
  let off = offsets[0] as number;
  for (let r = 0; r < hourStarts.length; r++) {
    const t = hourStarts[r] as number;
    if (t < segStart || t >= segEnd) {
      let seg = 0;
      while (seg + 1 < starts.length && (starts[seg + 1] as number) <= t) seg++;
      segStart = starts[seg] as number;
      segEnd = starts[seg + 1] ?? Infinity;
      off = offsets[seg] as number;
    }
    const i = Math.floor((t + off) / DAY_MS) - fromDay;
    out[r] = i >= 0 && i < n ? i : -1;
  }
  return out;
}

/** Folds rows into one row per local day from `from` to `to` inclusive, zero-filled, oldest first. */
export function foldDaily(rows: readonly UsageRow[], zone: Zone, from: LocalDate, to: LocalDate): DayRow[] {
  const fromDay = epochDayOf(from);
  const n = epochDayOf(to) - fromDay + 1;
  if (n <= 0) return [];
  const buckets: TokenCounts[] = new Array<TokenCounts>(n);
  for (let i = 0; i < n; i++) buckets[i] = zeroCounts();
  const index = localDayIndexes(
    rows.map((r) => r.hourStart),
    zone,
    from,
    to,
  );
  for (let r = 0; r < rows.length; r++) {
    const i = index[r] as number;
    if (i >= 0) addCounts(buckets[i] as TokenCounts, rows[r] as UsageRow);
  }
  const out: DayRow[] = new Array<DayRow>(n);
  for (let i = 0; i < n; i++) out[i] = { day: formatEpochDay(fromDay + i), totals: buckets[i] as TokenCounts };
  return out;
}

/** Local days of a column fold: day `i` is `firstDay + i`, its counts at row `i` of `counts`. */
export interface DayColumns {
  readonly firstDay: number;
  readonly days: number;
  readonly counts: CountArray;
}

/** {@link foldDaily} for rows in columns: one count row per local day from `from` to `to`, zero-filled. */
export function foldDailyColumns(rows: UsageColumns, zone: Zone, from: LocalDate, to: LocalDate): DayColumns {
  const firstDay = epochDayOf(from);
  const days = Math.max(0, epochDayOf(to) - firstDay + 1);
  return { firstDay, days, counts: sumByIndex(rows.counts, localDayIndexes(rows.hourStarts, zone, from, to), days) };
}

/** Daily rows in wire form from a column fold. */
export function dayColumnsToWire(folded: DayColumns): DayRowWire[] {
  const labels = formatEpochDays(folded.firstDay, folded.days);
  const out: DayRowWire[] = new Array<DayRowWire>(folded.days);
  for (let i = 0; i < folded.days; i++) out[i] = { day: labels[i] as LocalDate, ...totalsWireAt(folded.counts, i) };
  return out;
}

/** Billable tokens of each day of a column fold, oldest first. */
export function dayColumnsBillable(folded: DayColumns): bigint[] {
  const out = new Array<bigint>(folded.days);
  for (let i = 0; i < folded.days; i++) out[i] = billableAt(folded.counts, i);
  return out;
}

/** One local month's totals (`month` is `YYYY-MM`). */
export interface MonthRow {
  readonly month: string;
  readonly totals: TokenCounts;
}

/**
 * Index of the local month (0 = the oldest of `months` ending with `to`'s month) each instant falls
 * on, or −1 outside those months or after `to`.
 */
export function localMonthIndexes(
  hourStarts: readonly number[],
  zone: Zone,
  to: LocalDate,
  months: number,
): Int32Array {
  const out = new Int32Array(hourStarts.length).fill(-1);
  if (months <= 0) return out;
  const firstMonth = monthIndexOf(to) - (months - 1);
  // starts[k] = epoch day of the first day of month firstMonth + k.
  const starts: number[] = new Array<number>(months);
  for (let k = 0; k < months; k++) starts[k] = firstEpochDayOfMonth(firstMonth + k);
  const fromDay = starts[0] as number;
  const toDay = epochDayOf(to);
  const timeline = timelineForDays(zone, fromDay, toDay);
  for (let r = 0; r < hourStarts.length; r++) {
    const day = timeline.localEpochDayAt(hourStarts[r] as number);
    if (day < fromDay || day > toDay) continue;
    let lo = 0;
    let hi = months - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= day) lo = mid;
      else hi = mid - 1;
    }
    out[r] = lo;
  }
  return out;
}

/**
 * Folds rows into exactly `months` local months ending with `to`'s month, oldest first, zero-filled.
 * Days after `to` are not counted (a mid-month `to` truncates the newest month).
 */
export function foldMonthly(rows: readonly UsageRow[], zone: Zone, to: LocalDate, months: number): MonthRow[] {
  if (months <= 0) return [];
  const firstMonth = monthIndexOf(to) - (months - 1);
  const buckets: TokenCounts[] = new Array<TokenCounts>(months);
  for (let k = 0; k < months; k++) buckets[k] = zeroCounts();
  const index = localMonthIndexes(
    rows.map((r) => r.hourStart),
    zone,
    to,
    months,
  );
  for (let r = 0; r < rows.length; r++) {
    const k = index[r] as number;
    if (k >= 0) addCounts(buckets[k] as TokenCounts, rows[r] as UsageRow);
  }
  const out: MonthRow[] = new Array<MonthRow>(months);
  for (let k = 0; k < months; k++) out[k] = { month: formatMonth(firstMonth + k), totals: buckets[k] as TokenCounts };
  return out;
}

/** {@link foldMonthly} for rows in columns, straight to wire form. */
export function foldMonthlyColumnsToWire(
  rows: UsageColumns,
  zone: Zone,
  to: LocalDate,
  months: number,
): MonthRowWire[] {
  if (months <= 0) return [];
  const firstMonth = monthIndexOf(to) - (months - 1);
  const counts = sumByIndex(rows.counts, localMonthIndexes(rows.hourStarts, zone, to, months), months);
  const out: MonthRowWire[] = new Array<MonthRowWire>(months);
  for (let k = 0; k < months; k++) out[k] = { month: formatMonth(firstMonth + k), ...totalsWireAt(counts, k) };
  return out;
}

/** One UTC half-hour bucket of a local day, with its local label and totals. */
export interface HalfHourRow {
  /** Local start with offset, e.g. `2026-03-08T01:30:00-05:00`. */
  readonly hour: string;
  /** UTC start, `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly hour_start: string;
  readonly hourStartMs: number;
  readonly totals: TokenCounts;
}

/** Folds rows into the half-hour buckets that start inside local day `day` (48, or 46/50 on DST days), zero-filled. */
export function foldHalfHours(rows: readonly UsageRow[], zone: Zone, day: LocalDate): HalfHourRow[] {
  const slots = halfHourSlots(zone, day);
  const first = slots[0];
  if (first === undefined) return [];
  const out: HalfHourRow[] = slots.map((s) => ({
    hour: s.hour,
    hour_start: s.hour_start,
    hourStartMs: s.hourStartMs,
    totals: zeroCounts(),
  }));
  for (const row of rows) {
    const offset = row.hourStart - first.hourStartMs;
    if (offset < 0 || offset % HALF_HOUR_MS !== 0) continue;
    const slot = out[offset / HALF_HOUR_MS];
    if (slot !== undefined) addCounts(slot.totals, row);
  }
  return out;
}

/** Billable tokens per local day, from folded day rows (the heatmap's input). */
export function billableByDay(days: readonly DayRow[]): Map<LocalDate, bigint> {
  const map = new Map<LocalDate, bigint>();
  for (const d of days) map.set(d.day, d.totals.billable);
  return map;
}

/** A daily data row as the response carries it: `day` plus the six token fields as decimal strings. */
export type DayRowWire = { day: LocalDate } & TokenCountsWire;
/** A half-hour data row as the response carries it. */
export type HalfHourRowWire = { hour: string; hour_start: string } & TokenCountsWire;
/** A monthly data row as the response carries it. */
export type MonthRowWire = { month: string } & TokenCountsWire;

/** Daily rows in wire form (decimal strings). */
export function dayRowsToWire(rows: readonly DayRow[]): DayRowWire[] {
  return rows.map((r) => ({ day: r.day, ...toTokenCountsWire(r.totals) }));
}

/** Half-hour rows in wire form (decimal strings). */
export function halfHourRowsToWire(rows: readonly HalfHourRow[]): HalfHourRowWire[] {
  return rows.map((r) => ({ hour: r.hour, hour_start: r.hour_start, ...toTokenCountsWire(r.totals) }));
}

/** Monthly rows in wire form (decimal strings). */
export function monthRowsToWire(rows: readonly MonthRow[]): MonthRowWire[] {
  return rows.map((r) => ({ month: r.month, ...toTokenCountsWire(r.totals) }));
}
