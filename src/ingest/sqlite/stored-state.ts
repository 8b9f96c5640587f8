/**
 * @fileoverview What a SQLite group write reads of what is stored, as it goes, inside its
 * transaction (the PostgreSQL writer reads the same first, in one round trip:
 * postgres/stored-state.ts): each upload's device's stored days (every raw bucket of each UTC day
 * it touches, core/device-days.ts), and the sums, counts and rows the group's bounds and read
 * models start from (core/upload.ts, `StoredSums`).
 */
import type { IngestStatements } from '../../db/queries/ingest-sqlite.js';
import { dayTotalsOf } from '../../domain/day-slots.js';
import { daysOf, mentionedGroups, readDay, type StoredDays } from '../core/device-days.js';
import type { StoredSums } from '../core/upload.js';
import type { IngestBatch } from '../types.js';

/** The stored sums, read through the connection's statements (a group caches the day sums it read). */
export function storedSums(st: IngestStatements): StoredSums {
  return {
    storedBuckets: (userId) => st.storedBuckets(userId),
    packedDay: (userId, day) => st.day(userId, day),
    daySums(userId, day) {
      const packed = st.day(userId, day);
      return packed === undefined ? undefined : dayTotalsOf(packed);
    },
    daily: (userId, day, source, model) => st.daily(userId, day, source, model),
    teamsOf: (userId) => st.teamsOf(userId),
  };
}

/** The device's stored buckets of every UTC day the upload's buckets fall in (core/device-days.ts). */
export function storedDays(st: IngestStatements, deviceNum: bigint, batch: IngestBatch): StoredDays {
  const groups = mentionedGroups(batch.buckets);
  const days: StoredDays = new Map();
  for (const day of daysOf(batch.buckets)) days.set(day, readDay(day, st.deviceDay(deviceNum, day), groups));
  return days;
}
