/**
 * @fileoverview Pure: an upload against its device's stored days (one `usage_device_days` row per
 * UTC day, domain/device-day-buckets.ts). Both writers read the whole of every day an upload's
 * buckets fall in, plan the upload against those buckets (plan.ts leaves the groups it does not
 * mention alone), and write back each day the plan changes, packed whole.
 *
 * Reading whole days makes the stored state exact: every variant of a mentioned group, and every
 * row of a mentioned half-hour for the bucket bound, with no second read.
 */
import { dayOfHalfHour, type DayBucket } from '../domain/device-day-buckets.js';
import type { IngestPlan } from './plan.js';

/** A device's stored buckets by UTC epoch day, as read for an upload. */
export type StoredDays = Map<number, DayBucket[]>;

/** The distinct UTC days the buckets fall in, in first-seen order. */
export function daysOf(buckets: readonly { hourStart: number }[]): number[] {
  const days: number[] = [];
  let last = NaN;
  for (const b of buckets) {
    const day = dayOfHalfHour(b.hourStart);
    if (day !== last && !days.includes(day)) days.push(day);
    last = day;
  }
  return days;
}

/** Every stored bucket of the days, in one list (what the plan is made against). */
export function storedBuckets(days: StoredDays): DayBucket[] {
  const all: DayBucket[] = [];
  for (const list of days.values()) for (const b of list) all.push(b);
  return all;
}

/** Stored rows of the half-hour starting at `hourStart` (its day must have been read). */
export function rowsInHalfHour(days: StoredDays, hourStart: number): number {
  let n = 0;
  for (const b of days.get(dayOfHalfHour(hourStart)) ?? []) if (b.hourStart === hourStart) n += 1;
  return n;
}

const keyOf = (b: DayBucket): string => `${b.hourStart}\u0000${b.source}\u0000${b.model}\u0000${b.projectKey}`;

/**
 * The buckets of each day the plan changes, after it: its deletes removed, its upserts put in
 * place of the stored bucket of the same key or added. Days it leaves alone are not listed. A
 * changed day is never empty: a group the upload mentions keeps the upload's buckets.
 */
export function daysAfter(days: StoredDays, plan: Pick<IngestPlan, 'upserts' | 'deletes'>): StoredDays {
  const changed = new Map<number, Map<string, DayBucket>>();
  const dayOf = (hourStart: number): Map<string, DayBucket> => {
    const day = dayOfHalfHour(hourStart);
    let byKey = changed.get(day);
    if (byKey === undefined) {
      byKey = new Map();
      for (const b of days.get(day) ?? []) byKey.set(keyOf(b), b);
      changed.set(day, byKey);
    }
    return byKey;
  };
  for (const d of plan.deletes) dayOf(d.hourStart).delete(keyOf(d));
  for (const u of plan.upserts) dayOf(u.hourStart).set(keyOf(u), u);
  const after: StoredDays = new Map();
  for (const [day, byKey] of changed) after.set(day, [...byKey.values()]);
  return after;
}
