/**
 * @fileoverview A device's raw buckets of one UTC day packed into one text: the `usage_device_days`
 * table (one row per (device, UTC epoch day), migration 0014). An upload's buckets fall in one or a
 * few days, so it reads and writes a row or two where it read and wrote a row per bucket
 * (docs/decisions.md, "Raw buckets by device and day").
 *
 * The text is a JSON array of the day's buckets, each
 * `[slot, source, model, projectKey, projectRef, "input,cached,output,reasoning,total,billable"]`:
 * the half-hour's slot in the day (0..47), the key's strings as they are (`projectRef` null when the
 * bucket names no project reference), then the six counts as decimal text, so counts past 2^53
 * stay exact through `JSON.parse`. JSON because the strings are the clients' own and may hold any
 * character: the engines' JSON functions and `JSON.parse` agree on it without an escaping rule of
 * ours, and it stays readable in a SQL shell. Buckets are packed in key order
 * ({@link compareBucketKeys}).
 */
import type { Bucket } from './bucket.js';
import { DAY_MS, HALF_HOUR_MS } from './calendar.js';

/**
 * One bucket as it sits in the text: `[slot, source, model, projectKey, projectRef, counts]`. A
 * writer keeps the buckets an upload does not touch in this form and writes them back as they
 * were, so a day's untouched buckets cost no parsing of counts (docs/decisions.md, "Raw buckets by
 * device and day").
 */
export type PackedBucket = [number, string, string, string, string | null, string];

/** The UTC epoch day a half-hour starting at `hourStart` falls in. */
export function dayOfHalfHour(hourStart: number): number {
  return Math.floor(hourStart / DAY_MS);
}

const order = (a: string, b: string): number => (a === b ? 0 : a < b ? -1 : 1);

/** What orders a bucket: its (half-hour, source, model, project key). */
export type BucketKeyOf = Pick<Bucket, 'hourStart' | 'source' | 'model' | 'projectKey'>;

/** Orders buckets by (half-hour, source, model, project key), strings by UTF-16 code unit. */
export function compareBucketKeys(a: BucketKeyOf, b: BucketKeyOf): number {
  if (a.hourStart !== b.hourStart) return a.hourStart - b.hourStart;
  return order(a.source, b.source) || order(a.model, b.model) || order(a.projectKey, b.projectKey);
}

/** {@link compareBucketKeys}'s order, on packed buckets of one day. */
function comparePacked(a: PackedBucket, b: PackedBucket): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  return order(a[1], b[1]) || order(a[2], b[2]) || order(a[3], b[3]);
}

/** The slot (0..47) in UTC day `day` of the half-hour starting at `hourStart`; throws outside the day. */
export function slotInDay(day: number, hourStart: number): number {
  const slot = (hourStart - day * DAY_MS) / HALF_HOUR_MS;
  if (!Number.isInteger(slot) || slot < 0 || slot >= 48)
    throw new RangeError(`bucket ${hourStart} is not in day ${day}`);
  return slot;
}

/** The start of the half-hour in slot `slot` (0..47) of UTC day `day`: {@link slotInDay}'s inverse. */
export function halfHourOf(day: number, slot: number): number {
  return day * DAY_MS + slot * HALF_HOUR_MS;
}

/** A bucket of day `day` in its packed form. */
export function packedOf(day: number, b: Bucket): PackedBucket {
  return [
    slotInDay(day, b.hourStart),
    b.source,
    b.model,
    b.projectKey,
    b.projectRef,
    `${b.input},${b.cached},${b.output},${b.reasoning},${b.total},${b.billable}`,
  ];
}

/**
 * The count of `text` between `from` and `to`. Up to 15 digits it is below 2^53, so going through a
 * number is exact, and about three times faster than `BigInt` parsing the text (every stored bucket
 * of a group an upload mentions is parsed).
 */
function countAt(text: string, from: number, to: number): bigint {
  const digits = text.slice(from, to);
  return to - from <= 15 ? BigInt(Number(digits)) : BigInt(digits);
}

/** A packed bucket of day `day`, its counts parsed. */
export function bucketOf(day: number, packed: PackedBucket): Bucket {
  const [slot, source, model, projectKey, projectRef, counts] = packed;
  const c1 = counts.indexOf(',');
  const c2 = counts.indexOf(',', c1 + 1);
  const c3 = counts.indexOf(',', c2 + 1);
  const c4 = counts.indexOf(',', c3 + 1);
  const c5 = counts.indexOf(',', c4 + 1);
  return {
    hourStart: halfHourOf(day, slot),
    source,
    model,
    projectKey,
    projectRef,
    input: countAt(counts, 0, c1),
    cached: countAt(counts, c1 + 1, c2),
    output: countAt(counts, c2 + 1, c3),
    reasoning: countAt(counts, c3 + 1, c4),
    total: countAt(counts, c4 + 1, c5),
    billable: countAt(counts, c5 + 1, counts.length),
  };
}

/** The text of a day's packed buckets, in key order (`packed` is sorted in place). */
export function stringifyDay(packed: PackedBucket[]): string {
  return JSON.stringify(packed.sort(comparePacked));
}

/** A day's text as its packed buckets, in the order they were packed. */
export function parseDay(text: string): PackedBucket[] {
  return JSON.parse(text) as PackedBucket[];
}

/** Packs the buckets of UTC day `day` (every one must fall in it), in key order. */
export function packDayBuckets(day: number, buckets: readonly Bucket[]): string {
  return stringifyDay(buckets.map((b) => packedOf(day, b)));
}

/**
 * The buckets of UTC day `day` packed in `text`, in key order ({@link compareBucketKeys}): sorted
 * here, since a day the migration packed orders strings by code point, which differs from UTF-16
 * order where a character past U+FFFF meets one in U+E000..U+FFFF.
 */
export function unpackDayBuckets(day: number, text: string): Bucket[] {
  return parseDay(text)
    .map((p) => bucketOf(day, p))
    .sort(compareBucketKeys);
}
