/**
 * @fileoverview The analytics reads' `device_id` filter (docs/analytics.md, "One device"): the
 * device's usage comes from its raw buckets (db/queries/device-usage.ts), the only grain that keeps
 * the device, and is priced here, per (UTC day, source, model) at that day's price with the price
 * data the stored costs are priced by, as `usage_daily` prices a user's rows. So one device's cost
 * is exact for its own counts; the devices' costs may sum to a micro-dollar or so off the account's,
 * each being rounded on its own.
 */
import type { Db } from '../db/connect.js';
import type { DayModelUsage } from '../db/queries/analytics.js';
import { readCostsFingerprint } from '../db/queries/daily-costs.js';
import { listDeviceRows, userDeviceNum } from '../db/queries/device-usage.js';
import { InvalidParamError } from '../domain/param-error.js';
import type { UsageRow } from '../domain/usage-row.js';

/** The small number of the caller's device named by `device_id`, undefined without one; 400 for another's or an unknown one. */
export async function deviceFilter(db: Db, userId: string, deviceId: string | undefined): Promise<bigint | undefined> {
  const id = deviceId?.trim().toLowerCase();
  if (id === undefined || id === '') return undefined;
  const num = await userDeviceNum(db.kysely, userId, id);
  if (num === undefined) throw new InvalidParamError('device_id', 'is not one of your devices');
  return num;
}

/** The device's rows of `[startMs, endMs)` (optionally one source). */
export function deviceRows(db: Db, num: bigint, startMs: number, endMs: number, source?: string): Promise<UsageRow[]> {
  return listDeviceRows(db.kysely, num, startMs, endMs, source);
}

/** The device's usage of a window in the shape the totals and the model breakdown read: every row priced here. */
export async function deviceDayModelUsage(
  db: Db,
  num: bigint,
  startMs: number,
  endMs: number,
  source?: string,
): Promise<DayModelUsage> {
  const [rows, pricedBy] = await Promise.all([deviceRows(db, num, startMs, endMs, source), readCostsFingerprint(db)]);
  return { totals: rows, priced: [], edgeRows: rows, pricedBy };
}
