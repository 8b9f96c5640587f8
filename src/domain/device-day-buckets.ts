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
import { DAY_MS, HALF_HOUR_MS } from './calendar.js';
import type { TokenCounts } from './token-counts.js';

/** One stored raw bucket: a device's counts for one (half-hour, source, model, project). */
export interface DayBucket extends TokenCounts {
  hourStart: number;
  source: string;
  model: string;
  /** '' when the bucket carries no project. */
  projectKey: string;
  projectRef: string | null;
}

type Packed = [number, string, string, string, string | null, string];

/** The UTC epoch day a half-hour starting at `hourStart` falls in. */
export function dayOfHalfHour(hourStart: number): number {
  return Math.floor(hourStart / DAY_MS);
}

/** Orders buckets by (half-hour, source, model, project key), strings by UTF-16 code unit. */
export function compareBucketKeys(a: DayBucket, b: DayBucket): number {
  if (a.hourStart !== b.hourStart) return a.hourStart - b.hourStart;
  if (a.source !== b.source) return a.source < b.source ? -1 : 1;
  if (a.model !== b.model) return a.model < b.model ? -1 : 1;
  if (a.projectKey !== b.projectKey) return a.projectKey < b.projectKey ? -1 : 1;
  return 0;
}

/** Packs the buckets of UTC day `day` (every one must fall in it), in key order. */
export function packDayBuckets(day: number, buckets: readonly DayBucket[]): string {
  const start = day * DAY_MS;
  const packed = [...buckets].sort(compareBucketKeys).map((b): Packed => {
    const slot = (b.hourStart - start) / HALF_HOUR_MS;
    if (!Number.isInteger(slot) || slot < 0 || slot >= 48)
      throw new RangeError(`bucket ${b.hourStart} is not in day ${day}`);
    return [
      slot,
      b.source,
      b.model,
      b.projectKey,
      b.projectRef,
      `${b.input},${b.cached},${b.output},${b.reasoning},${b.total},${b.billable}`,
    ];
  });
  return JSON.stringify(packed);
}

/** The buckets of UTC day `day` packed in `text`, in the order they were packed. */
export function unpackDayBuckets(day: number, text: string): DayBucket[] {
  const start = day * DAY_MS;
  return (JSON.parse(text) as Packed[]).map(([slot, source, model, projectKey, projectRef, counts]) => {
    const c = counts.split(',');
    return {
      hourStart: start + slot * HALF_HOUR_MS,
      source,
      model,
      projectKey,
      projectRef,
      input: BigInt(c[0] as string),
      cached: BigInt(c[1] as string),
      output: BigInt(c[2] as string),
      reasoning: BigInt(c[3] as string),
      total: BigInt(c[4] as string),
      billable: BigInt(c[5] as string),
    };
  });
}
