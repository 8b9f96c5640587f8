/**
 * @fileoverview The raw buckets a test's database holds, unpacked from `usage_device_days` (one
 * row per device and UTC day, domain/device-day-buckets.ts), for tests that check what the ingest
 * writers stored bucket by bucket — and a packed day written straight in, for tests that need rows
 * no upload would store.
 */
import type { Bucket } from '../../src/domain/bucket.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { dayOfHalfHour, packDayBuckets, unpackDayBuckets } from '../../src/domain/device-day-buckets.js';

/** One stored raw bucket with its device. */
export interface StoredBucket extends Bucket {
  deviceNum: bigint;
  /** The device's id; null when no device has the row's number (the device is gone). */
  deviceId: string | null;
}

/** Every stored raw bucket, by device number, then in key order (as unpacked). */
export async function storedBuckets(db: Kysely<Database>): Promise<StoredBucket[]> {
  const rows = await db
    .selectFrom('usage_device_days as b')
    .leftJoin('devices as d', 'd.num', 'b.device_num')
    .select(['b.device_num', 'b.day', 'b.buckets', 'd.id as device_id'])
    .orderBy('b.device_num')
    .orderBy('b.day')
    .execute();
  return rows.flatMap((r) =>
    unpackDayBuckets(Number(r.day), r.buckets).map((b) => ({ ...b, deviceNum: r.device_num, deviceId: r.device_id })),
  );
}

/**
 * Writes `buckets` (all of one UTC day) as device `deviceId`'s stored day, in place of what it held:
 * raw rows as an older server, or a lower bound, would have left them.
 */
export async function putStoredDay(db: Kysely<Database>, deviceId: string, buckets: readonly Bucket[]): Promise<void> {
  const first = buckets[0];
  if (first === undefined) throw new Error('a stored day holds at least one bucket');
  const day = dayOfHalfHour(first.hourStart);
  const { num } = await db.selectFrom('devices').select('num').where('id', '=', deviceId).executeTakeFirstOrThrow();
  const packed = packDayBuckets(day, buckets);
  await db
    .insertInto('usage_device_days')
    .values({ device_num: num, day, buckets: packed, updated_at: 0 })
    .onConflict((oc) => oc.columns(['device_num', 'day']).doUpdateSet({ buckets: packed }))
    .execute();
}
