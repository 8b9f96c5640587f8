/**
 * @fileoverview The usage of some of a user's projects per (UTC day, source, raw model), read from
 * the raw buckets of all the user's devices (revoked ones too): `project_usage` keeps all-time
 * counts per project and source only, without the model and day that pricing needs.
 */
import type { Queryable } from '../connect.js';

import { DAY_MS } from '../../domain/calendar.js';
import { bucketOf, parseDay } from '../../domain/device-day-buckets.js';
import { addToRow, type UsageRow, type UsageRowSum } from '../../domain/usage-row.js';

/**
 * Per project key of `projectKeys`: its rows, one per (UTC day, source, raw model), `hourStart` the
 * day's start (optionally one source only). One read of the user's devices' days, in device order.
 */
export async function listProjectDayRows(
  db: Queryable,
  userId: string,
  projectKeys: ReadonlySet<string>,
  source?: string,
): Promise<Map<string, UsageRow[]>> {
  const byProject = new Map<string, Map<string, UsageRowSum>>();
  if (projectKeys.size === 0) return new Map();
  const rows = await db
    .selectFrom('usage_device_days as u')
    .innerJoin('devices as d', 'd.num', 'u.device_num')
    .select(['u.day', 'u.buckets'])
    .where('d.user_id', '=', userId)
    .execute();
  for (const row of rows) {
    const day = Number(row.day);
    for (const packed of parseDay(row.buckets)) {
      const projectKey = packed[3];
      if (!projectKeys.has(projectKey) || (source !== undefined && packed[1] !== source)) continue;
      const b = bucketOf(day, packed);
      let sums = byProject.get(projectKey);
      if (sums === undefined) byProject.set(projectKey, (sums = new Map()));
      addToRow(sums, `${day}\u0000${b.source}\u0000${b.model}`, day * DAY_MS, b);
    }
  }
  return new Map([...byProject].map(([key, sums]) => [key, [...sums.values()]]));
}
