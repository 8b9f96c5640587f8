/**
 * @fileoverview One device's usage, read from its raw buckets (`usage_device_days`): the only
 * stored grain that keeps the device. The read models (`usage_rollup`, `usage_daily`, the packed
 * days) are summed over a user's devices. A device's days are one primary-key range
 * (device_num, day), so a window costs one row per day the device has usage in it.
 */
import type { Queryable } from '../connect.js';

import { DAY_MS } from '../../domain/calendar.js';
import { bucketOf, parseDay } from '../../domain/device-day-buckets.js';
import { addToRow, type UsageRow, type UsageRowSum } from '../../domain/usage-row.js';

/** The small number of the user's device `deviceId` (revoked too), or undefined when the user has none such. */
export async function userDeviceNum(db: Queryable, userId: string, deviceId: string): Promise<bigint | undefined> {
  const row = await db
    .selectFrom('devices')
    .select('num')
    .where('id', '=', deviceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.num;
}

/**
 * The device's usage per (UTC half-hour, source, raw model), summed over projects, for the buckets
 * that start in `[startMs, endMs)` (optionally one source), in no particular order.
 */
export async function listDeviceRows(
  db: Queryable,
  deviceNum: bigint,
  startMs: number,
  endMs: number,
  source?: string,
): Promise<UsageRow[]> {
  if (endMs <= startMs) return [];
  const rows = await db
    .selectFrom('usage_device_days')
    .select(['day', 'buckets'])
    .where('device_num', '=', deviceNum)
    .where('day', '>=', BigInt(Math.floor(startMs / DAY_MS)))
    .where('day', '<=', BigInt(Math.floor((endMs - 1) / DAY_MS)))
    .execute();
  const out = new Map<string, UsageRowSum>();
  for (const row of rows) {
    const day = Number(row.day);
    for (const packed of parseDay(row.buckets)) {
      if (source !== undefined && packed[1] !== source) continue;
      const b = bucketOf(day, packed);
      if (b.hourStart < startMs || b.hourStart >= endMs) continue;
      addToRow(out, `${b.hourStart}\u0000${b.source}\u0000${b.model}`, b.hourStart, b);
    }
  }
  return [...out.values()];
}
