/**
 * @fileoverview Everything that knows about time zones (the only such module).
 *
 * Zone rules come from the Temporal polyfill (IANA data via Intl); there is no offset table
 * here. A request's zone is resolved once ({@link resolveZone}); folds then ask an
 * {@link OffsetTimeline} for offsets, which costs one Temporal call per daylight-saving
 * transition instead of one per row. A bucket belongs to the local day, half-hour and month
 * of its `hour_start` instant (see docs/time-zones.md).
 */

import { Temporal } from 'temporal-polyfill';
import { DAY_MS, HALF_HOUR_MS, civilFromDays, epochDayOf, formatEpochDay, type LocalDate } from './calendar.js';
import { InvalidParamError } from './param-error.js';

/** A resolved request zone: UTC, a fixed offset (from `tz_offset_minutes`) or an IANA zone (from `tz`). */
export type Zone =
  | { readonly kind: 'utc'; readonly id: 'UTC' }
  | { readonly kind: 'offset'; readonly id: string; readonly offsetMinutes: number }
  | { readonly kind: 'iana'; readonly id: string };

/** The zone used when neither `tz` nor `tz_offset_minutes` is given. */
export const UTC_ZONE: Zone = Object.freeze({ kind: 'utc', id: 'UTC' });

/** Smallest accepted `tz_offset_minutes` (UTC−12:00). */
export const MIN_OFFSET_MINUTES = -720;
/** Largest accepted `tz_offset_minutes` (UTC+14:00). */
export const MAX_OFFSET_MINUTES = 840;

/** The zone-related query parameters as a route receives them (strings or already-coerced numbers). */
export interface ZoneParams {
  readonly tz?: string | null | undefined;
  readonly tz_offset_minutes?: number | string | null | undefined;
}

const UTC_NAMES = new Set(['utc', 'etc/utc', 'etc/uct', 'etc/zulu', 'zulu', 'uct', 'etc/universal', 'universal']);

/** Formats an offset in minutes as `+HH:MM` / `-HH:MM` (seconds appended only when non-zero). */
export function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const abs = Math.abs(offsetMs);
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const s = Math.floor((abs % 60_000) / 1000);
  const base = `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  return s === 0 ? base : `${base}:${String(s).padStart(2, '0')}`;
}

function parseOffsetMinutes(raw: number | string): number {
  let value: number;
  if (typeof raw === 'number') {
    value = raw;
  } else {
    const text = raw.trim();
    if (!/^[+-]?\d{1,6}$/.test(text)) {
      throw new InvalidParamError(
        'tz_offset_minutes',
        `tz_offset_minutes must be a whole number of minutes east of UTC (got "${raw}")`,
      );
    }
    value = Number(text);
  }
  if (!Number.isInteger(value) || value < MIN_OFFSET_MINUTES || value > MAX_OFFSET_MINUTES) {
    throw new InvalidParamError(
      'tz_offset_minutes',
      `tz_offset_minutes must be a whole number from ${MIN_OFFSET_MINUTES} to ${MAX_OFFSET_MINUTES} (got ${String(raw)})`,
    );
  }
  return value === 0 ? 0 : value; // normalise -0
}

/** Zones already resolved by name; zone rules are fixed for the process's life, so this is pure memoisation. */
const ianaCache = new Map<string, Zone>();
const IANA_CACHE_LIMIT = 1_000;

function resolveIana(name: string): Zone {
  const cached = ianaCache.get(name);
  if (cached !== undefined) return cached;
  const zone = resolveIanaUncached(name);
  if (ianaCache.size >= IANA_CACHE_LIMIT) ianaCache.clear();
  ianaCache.set(name, zone);
  return zone;
}

function resolveIanaUncached(name: string): Zone {
  if (UTC_NAMES.has(name.toLowerCase())) return UTC_ZONE;
  // Offset strings ("+05:30") are not IANA names; those callers should send tz_offset_minutes.
  if (/^[+\-−]/.test(name) || name.length > 64) {
    throw new InvalidParamError('tz', `tz must be an IANA time-zone name such as America/New_York (got "${name}")`);
  }
  let id: string;
  try {
    id = new Temporal.ZonedDateTime(0n, name).timeZoneId;
  } catch {
    throw new InvalidParamError('tz', `tz "${name}" is not a known IANA time zone`);
  }
  return Object.freeze({ kind: 'iana', id });
}

/**
 * Validates `tz_offset_minutes` (whole minutes, −720..840); blank text counts as absent
 * (undefined). Anything else throws {@link InvalidParamError} naming the parameter.
 */
export function parseOffsetParam(raw: number | string | null | undefined): number | undefined {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return undefined;
  return parseOffsetMinutes(raw);
}

/**
 * Validates `tz` and returns the trimmed name; blank counts as absent (undefined). An unknown
 * zone or an offset written as a name throws {@link InvalidParamError} naming `tz`.
 */
export function parseZoneParam(raw: string | null | undefined): string | undefined {
  const tz = typeof raw === 'string' ? raw.trim() : '';
  if (tz === '') return undefined;
  resolveIana(tz);
  return tz;
}

/**
 * Resolves `tz` / `tz_offset_minutes` to a {@link Zone}: `tz` wins, then the offset, else UTC.
 * Empty strings count as absent. An unknown zone or an offset outside −720..840 throws
 * {@link InvalidParamError} naming the parameter (an invalid offset is rejected even next to a valid `tz`).
 */
export function resolveZone(params: ZoneParams): Zone {
  const tz = typeof params.tz === 'string' ? params.tz.trim() : '';
  const offset = parseOffsetParam(params.tz_offset_minutes);
  if (tz !== '') return resolveIana(tz);
  if (offset === undefined || offset === 0) return UTC_ZONE;
  return { kind: 'offset', id: formatOffset(offset * 60_000), offsetMinutes: offset };
}

interface Segment {
  readonly startMs: number;
  readonly offsetMs: number;
}

/** Offsets of one zone over an instant window, precomputed so per-row lookups are plain arithmetic. */
export interface OffsetTimeline {
  /** Start instants of the constant-offset segments, ascending; the first is −Infinity. */
  readonly segmentStarts: readonly number[];
  /** Offset (ms east of UTC) of each segment, aligned with {@link OffsetTimeline.segmentStarts}. */
  readonly segmentOffsets: readonly number[];
  /** Offset (ms east of UTC) in force at `instantMs`; exact inside the window the timeline was built for. */
  offsetMsAt(instantMs: number): number;
  /** Epoch day number of the local date at `instantMs`. */
  localEpochDayAt(instantMs: number): number;
}

function zonedAt(zoneId: string, instantMs: number): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(instantMs).toZonedDateTimeISO(zoneId);
}

interface YearSegments {
  /** Offset in force at 00:00 UTC on 1 January. */
  readonly startOffsetMs: number;
  /** Transitions inside the UTC year, ascending. */
  readonly transitions: readonly Segment[];
}

/** Offsets and transitions per (zone, UTC year); zone rules are fixed for the process's life, so this is pure memoisation. */
const yearCache = new Map<string, YearSegments>();
const YEAR_CACHE_LIMIT = 5_000;

function yearSegments(zoneId: string, year: number): YearSegments {
  const key = `${zoneId}|${year}`;
  const cached = yearCache.get(key);
  if (cached !== undefined) return cached;
  const yearStart = Date.UTC(year, 0, 1);
  const yearEnd = Date.UTC(year + 1, 0, 1);
  let zdt = zonedAt(zoneId, yearStart);
  const startOffsetMs = zdt.offsetNanoseconds / 1e6;
  const transitions: Segment[] = [];
  for (;;) {
    const next = zdt.getTimeZoneTransition('next');
    if (next === null || next.epochMilliseconds >= yearEnd) break;
    transitions.push({ startMs: next.epochMilliseconds, offsetMs: next.offsetNanoseconds / 1e6 });
    zdt = next;
  }
  if (yearCache.size >= YEAR_CACHE_LIMIT) yearCache.clear();
  const result: YearSegments = { startOffsetMs, transitions };
  yearCache.set(key, result);
  return result;
}

/**
 * Builds an {@link OffsetTimeline} valid for instants in [startMs, endMs). Offsets and transitions
 * are asked from Temporal once per (zone, UTC year) and memoised; fixed zones need none.
 */
export function offsetTimeline(zone: Zone, startMs: number, endMs: number): OffsetTimeline {
  const segments: Segment[] = [];
  if (zone.kind === 'utc') {
    segments.push({ startMs: -Infinity, offsetMs: 0 });
  } else if (zone.kind === 'offset') {
    segments.push({ startMs: -Infinity, offsetMs: zone.offsetMinutes * 60_000 });
  } else {
    const firstYear = new Date(startMs).getUTCFullYear();
    const lastYear = new Date(Math.max(startMs, endMs - 1)).getUTCFullYear();
    let initial = yearSegments(zone.id, firstYear).startOffsetMs;
    const inside: Segment[] = [];
    for (let year = firstYear; year <= lastYear; year++) {
      for (const t of yearSegments(zone.id, year).transitions) {
        if (t.startMs <= startMs) initial = t.offsetMs;
        else if (t.startMs < endMs) inside.push(t);
      }
    }
    segments.push({ startMs: -Infinity, offsetMs: initial }, ...inside);
  }
  const segmentStarts = segments.map((seg) => seg.startMs);
  const segmentOffsets = segments.map((seg) => seg.offsetMs);
  if (segments.length === 1) {
    const only = (segments[0] as Segment).offsetMs;
    return {
      segmentStarts,
      segmentOffsets,
      offsetMsAt: () => only,
      localEpochDayAt: (ms) => Math.floor((ms + only) / DAY_MS),
    };
  }
  let cursor = 0;
  const offsetMsAt = (ms: number): number => {
    // Rows usually arrive sorted, so the cursor rarely moves far; fall back to a scan otherwise.
    let seg = segments[cursor] as Segment;
    const nextSeg = segments[cursor + 1];
    if (ms >= seg.startMs && (nextSeg === undefined || ms < nextSeg.startMs)) return seg.offsetMs;
    let i = ms >= seg.startMs ? cursor : 0;
    while (i + 1 < segments.length && (segments[i + 1] as Segment).startMs <= ms) i++;
    cursor = i;
    seg = segments[i] as Segment;
    return seg.offsetMs;
  };
  return {
    segmentStarts,
    segmentOffsets,
    offsetMsAt,
    localEpochDayAt: (ms) => Math.floor((ms + offsetMsAt(ms)) / DAY_MS),
  };
}

/** Offset (ms east of UTC) of `zone` at one instant; for single lookups, folds should use {@link offsetTimeline}. */
export function offsetMsAt(zone: Zone, instantMs: number): number {
  if (zone.kind === 'utc') return 0;
  if (zone.kind === 'offset') return zone.offsetMinutes * 60_000;
  return zonedAt(zone.id, instantMs).offsetNanoseconds / 1e6;
}

/** The local date in `zone` at `instantMs` (e.g. the request's "today" from an injected clock). */
export function localDateAt(zone: Zone, instantMs: number): LocalDate {
  return formatEpochDay(Math.floor((instantMs + offsetMsAt(zone, instantMs)) / DAY_MS));
}

/** Today's local date in `zone`, given the current instant from the caller's clock. */
export function todayIn(zone: Zone, nowMs: number): LocalDate {
  return localDateAt(zone, nowMs);
}

/** First instant (epoch ms) of the local day with epoch day number `epochDay`; a midnight in a DST gap starts the day at the first valid local time. */
export function startOfLocalEpochDay(zone: Zone, epochDay: number): number {
  if (zone.kind === 'utc') return epochDay * DAY_MS;
  if (zone.kind === 'offset') return epochDay * DAY_MS - zone.offsetMinutes * 60_000;
  const { y, m, d } = civilFromDays(epochDay);
  return Temporal.PlainDate.from({ year: y, month: m, day: d }).toZonedDateTime({ timeZone: zone.id })
    .epochMilliseconds;
}

/** First instant (epoch ms) of a local date in `zone`; when midnight falls in a DST gap the day starts at the first valid local time. */
export function startOfLocalDay(zone: Zone, date: LocalDate): number {
  return startOfLocalEpochDay(zone, epochDayOf(date));
}

/** A UTC instant window `[startMs, endMs)` in epoch milliseconds. */
export interface InstantRange {
  readonly startMs: number;
  readonly endMs: number;
}

/** The UTC instants `[start of from, start of the day after to)` of an inclusive local date range, DST-aware; SQL filters `hour_start` by it. */
export function localRangeToInstants(zone: Zone, from: LocalDate, to: LocalDate): InstantRange {
  return { startMs: startOfLocalDay(zone, from), endMs: startOfLocalEpochDay(zone, epochDayOf(to) + 1) };
}

/** `YYYY-MM-DDTHH:MM:SSZ` for a UTC instant (whole seconds; buckets never carry fractions). */
export function formatUtcInstant(instantMs: number): string {
  return formatLocalTimestamp(instantMs, 0).replace(/\+00:00$/, 'Z');
}

/** ISO 8601 local date-time with its offset, e.g. `2026-03-08T01:30:00-05:00`, for an instant and the offset in force. */
export function formatLocalTimestamp(instantMs: number, offsetMs: number): string {
  const localMs = instantMs + offsetMs;
  const epochDay = Math.floor(localMs / DAY_MS);
  const msOfDay = localMs - epochDay * DAY_MS;
  const { y, m, d } = civilFromDays(epochDay);
  const hh = Math.floor(msOfDay / 3_600_000);
  const mm = Math.floor((msOfDay % 3_600_000) / 60_000);
  const ss = Math.floor((msOfDay % 60_000) / 1000);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  return `${String(y).padStart(4, '0')}-${p2(m)}-${p2(d)}T${p2(hh)}:${p2(mm)}:${p2(ss)}${formatOffset(offsetMs)}`;
}

/** One UTC half-hour bucket that starts inside a local day. */
export interface HalfHourSlot {
  /** Bucket start as epoch ms (matches `UsageRow.hourStart`). */
  readonly hourStartMs: number;
  /** Bucket start in UTC, `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly hour_start: string;
  /** Bucket start in local time with its offset, e.g. `2026-03-08T01:30:00-05:00`. */
  readonly hour: string;
}

/**
 * The UTC half-hour buckets whose start lies inside local day `day`, oldest first: 48 on a normal
 * day, 46/50 on a one-hour DST change. In :45 zones (Asia/Kathmandu) the labels fall on :15/:45 and
 * the bucket straddling local midnight belongs to the day its start lies in.
 */
export function halfHourSlots(zone: Zone, day: LocalDate): HalfHourSlot[] {
  const { startMs, endMs } = localRangeToInstants(zone, day, day);
  const timeline = offsetTimeline(zone, startMs, endMs);
  const slots: HalfHourSlot[] = [];
  for (let t = Math.ceil(startMs / HALF_HOUR_MS) * HALF_HOUR_MS; t < endMs; t += HALF_HOUR_MS) {
    slots.push({
      hourStartMs: t,
      hour_start: formatUtcInstant(t),
      hour: formatLocalTimestamp(t, timeline.offsetMsAt(t)),
    });
  }
  return slots;
}

/**
 * First instants of many local days at once (same answers as {@link startOfLocalEpochDay}), for
 * folds that need every day start of a long range: one offset timeline instead of one Temporal
 * call per day. A midnight inside a daylight-saving gap falls back to {@link startOfLocalEpochDay}.
 */
export function startsOfLocalEpochDays(zone: Zone, epochDays: readonly number[]): number[] {
  if (zone.kind !== 'iana') return epochDays.map((d) => startOfLocalEpochDay(zone, d));
  if (epochDays.length === 0) return [];
  let lo = Infinity;
  let hi = -Infinity;
  for (const d of epochDays) {
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  const timeline = offsetTimeline(zone, lo * DAY_MS - 15 * 3_600_000, (hi + 1) * DAY_MS + 15 * 3_600_000);
  const starts = timeline.segmentStarts;
  const offsets = timeline.segmentOffsets;
  return epochDays.map((d) => {
    const midnight = d * DAY_MS;
    // Segments ascend, so the first match is the earlier instant of an ambiguous (repeated) midnight.
    for (let i = 0; i < starts.length; i++) {
      const t = midnight - (offsets[i] as number);
      if (t >= (starts[i] as number) && t < (starts[i + 1] ?? Infinity)) return t;
    }
    return startOfLocalEpochDay(zone, d);
  });
}
