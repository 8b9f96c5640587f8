/**
 * @fileoverview Pure: an upload against its device's stored days (one `usage_device_days` row per
 * UTC day, domain/device-day-buckets.ts). Both writers read the whole of every day an upload's
 * buckets fall in, plan the upload against the buckets of the groups it mentions, and write back
 * each day the plan changes, whole.
 *
 * Reading whole days makes the stored state exact with one read: every variant of a mentioned
 * group, and every bucket of a mentioned half-hour for the bucket bound. Only the mentioned groups'
 * buckets are parsed; the rest of a day stays in its packed form and goes back as it came, so an
 * upload of one half-hour into a full day costs little more than the day's `JSON.parse` and
 * `JSON.stringify` (docs/decisions.md, "Raw buckets by device and day").
 */
import type { Bucket } from '../../domain/bucket.js';
import {
  bucketOf,
  dayOfHalfHour,
  halfHourOf,
  packedOf,
  parseDay,
  slotInDay,
  stringifyDay,
  type PackedBucket,
} from '../../domain/device-day-buckets.js';
import type { IngestPlan } from './plan.js';

/** One stored day as read for an upload. */
export interface StoredDay {
  /** The buckets of the (half-hour, source, model) groups the upload mentions, parsed. */
  readonly mentioned: Bucket[];
  /** Every other bucket of the day, as stored. */
  readonly others: PackedBucket[];
}

/** A device's stored days by UTC epoch day, as read for an upload. */
export type StoredDays = Map<number, StoredDay>;

/** The (half-hour, source, model) groups an upload mentions (see {@link readDay}). */
export type MentionedGroups = ReadonlySet<string>;

const groupKey = (hourStart: number, source: string, model: string): string =>
  `${hourStart}\u0000${source}\u0000${model}`;

/**
 * The (half-hour, source, model) groups the buckets mention. Keyed by the half-hour itself, not its
 * slot in a day: an upload spanning days mentions a slot on one day and not on another, and the
 * buckets read as mentioned must be exactly those of its groups ({@link daysAfter} relies on it).
 */
export function mentionedGroups(buckets: readonly Bucket[]): MentionedGroups {
  const groups = new Set<string>();
  for (const b of buckets) groups.add(groupKey(b.hourStart, b.source, b.model));
  return groups;
}

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

/** Day `day` as stored (`text`, undefined when nothing is), split for an upload mentioning `groups`. */
export function readDay(day: number, text: string | undefined, groups: MentionedGroups): StoredDay {
  const stored: StoredDay = { mentioned: [], others: [] };
  if (text === undefined) return stored;
  for (const packed of parseDay(text)) {
    if (groups.has(groupKey(halfHourOf(day, packed[0]), packed[1], packed[2])))
      stored.mentioned.push(bucketOf(day, packed));
    else stored.others.push(packed);
  }
  return stored;
}

/** The stored buckets of the groups the upload mentions, over all its days (what the plan is made against). */
export function storedBuckets(days: StoredDays): Bucket[] {
  const all: Bucket[] = [];
  for (const day of days.values()) for (const b of day.mentioned) all.push(b);
  return all;
}

/** Stored buckets of the half-hour starting at `hourStart` (its day must have been read). */
export function bucketsInHalfHour(days: StoredDays, hourStart: number): number {
  const day = dayOfHalfHour(hourStart);
  const stored = days.get(day);
  if (stored === undefined) return 0;
  const slot = slotInDay(day, hourStart);
  let n = 0;
  for (const b of stored.mentioned) if (b.hourStart === hourStart) n += 1;
  for (const p of stored.others) if (p[0] === slot) n += 1;
  return n;
}

/**
 * The text of each day the plan changes, after it; days it leaves alone are not listed. The buckets
 * of the groups an upload mentions are, after its plan, exactly its own buckets in them: the plan
 * stores each one unchanged or upserts it, and deletes every stored variant the upload leaves out
 * (plan.ts; an upload holds no two buckets of one key, normalize.ts). So a changed day is its other
 * buckets as they were and the upload's buckets of that day, never empty, and nothing of the plan's
 * rows needs matching to the stored ones. `uploaded` are the buckets the plan was made from.
 */
export function daysAfter(
  days: StoredDays,
  plan: Pick<IngestPlan, 'upserts' | 'deletes'>,
  uploaded: readonly Bucket[],
): Map<number, string> {
  const changed = new Map<number, PackedBucket[]>();
  const change = (hourStart: number): void => {
    const day = dayOfHalfHour(hourStart);
    if (!changed.has(day)) changed.set(day, [...(days.get(day)?.others ?? [])]);
  };
  for (const d of plan.deletes) change(d.hourStart);
  for (const u of plan.upserts) change(u.hourStart);
  for (const b of uploaded) {
    const day = dayOfHalfHour(b.hourStart);
    changed.get(day)?.push(packedOf(day, b));
  }
  const after = new Map<number, string>();
  for (const [day, packed] of changed) after.set(day, stringifyDay(packed));
  return after;
}
