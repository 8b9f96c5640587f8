/**
 * @fileoverview Reads for exportUsage, one page at a time: a user's devices, then each device's
 * half-hour buckets in key order, then the user's daily rows. Pages continue after the last key
 * read (keyset pagination), so a page costs about the same however deep into the data it is and
 * memory holds one page at a time (with the few stored rows it is read from).
 *
 * Buckets are stored packed, one `usage_device_days` row per (device, UTC day)
 * (domain/device-day-buckets.ts): a page reads the device's days from the day of the last key read
 * on, a few rows at a time, and unpacks, sorts and filters them here. Their key order is therefore
 * {@link compareBucketKeys}'s (strings by UTF-16 code unit) on both engines, whatever the database's
 * collation; the keyset (`after`) is compared with the same function. Daily rows are read in SQL
 * order on their primary key.
 */
import type { Queryable } from '../connect.js';
import { compareBucketKeys, dayOfHalfHour, unpackDayBuckets } from '../../domain/device-day-buckets.js';
import type { TokenCounts } from '../../domain/token-counts.js';
import { COUNT_COLUMNS, countsOf } from '../token-columns.js';
import { COSTS_STATE } from './daily-costs.js';

export interface ExportDevice {
  id: string;
  name: string;
}

/** The user's devices, revoked ones included (their buckets stay). */
export async function listExportDevices(db: Queryable, userId: string): Promise<ExportDevice[]> {
  return db
    .selectFrom('devices')
    .select(['id', 'name'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export interface BucketKey {
  hourStart: bigint;
  source: string;
  model: string;
  projectKey: string;
}

export interface ExportBucket extends BucketKey, TokenCounts {
  projectRef: string | null;
}

/** Day rows read by a page's first query; each further query of the page reads twice as many. */
const FIRST_DAYS_READ = 8;

/**
 * Up to `limit` buckets of a device with `hourStart` in [fromMs, toMs), after `after` in key order
 * ({@link compareBucketKeys}), in key order. Reads the device's days from the day of `after` (or
 * of `fromMs`) on, in day order, at most what the page still lacks per query (a stored day holds
 * at least one bucket), and reads on while the page is not full and days remain.
 */
export async function listBucketPage(
  db: Queryable,
  q: { deviceId: string; fromMs: number; toMs: number; after: BucketKey | undefined; limit: number },
): Promise<ExportBucket[]> {
  const page: ExportBucket[] = [];
  if (q.limit <= 0 || q.toMs <= q.fromMs) return page;
  const after = q.after === undefined ? undefined : { ...q.after, hourStart: Number(q.after.hourStart) };
  const lastDay = dayOfHalfHour(q.toMs - 1);
  let day = dayOfHalfHour(after === undefined ? q.fromMs : Math.max(q.fromMs, after.hourStart));
  for (let read = FIRST_DAYS_READ; day <= lastDay; read *= 2) {
    const want = Math.min(read, q.limit - page.length);
    const rows = await db
      .selectFrom('usage_device_days')
      .select(['day', 'buckets'])
      .where('device_num', '=', (eb) => eb.selectFrom('devices').select('num').where('id', '=', q.deviceId))
      .where('day', '>=', BigInt(day))
      .where('day', '<=', BigInt(lastDay))
      .orderBy('day')
      .limit(want)
      .execute();
    for (const row of rows) {
      day = Number(row.day) + 1;
      for (const b of unpackDayBuckets(Number(row.day), row.buckets)) {
        if (b.hourStart < q.fromMs || b.hourStart >= q.toMs) continue;
        if (after !== undefined && compareBucketKeys(b, after) <= 0) continue;
        page.push({ ...b, hourStart: BigInt(b.hourStart) });
        if (page.length === q.limit) return page;
      }
    }
    if (rows.length < want) break;
  }
  return page;
}

export interface DailyKey {
  day: bigint;
  source: string;
  model: string;
}

export interface ExportDaily extends DailyKey, TokenCounts {
  costMicros: bigint;
  /** Fingerprint of the price data that priced `costMicros`, read in the same statement. */
  pricedBy: string | null;
}

/** Up to `limit` daily rows (UTC epoch days in [fromDay, toDay]) after `after` in key order. */
export async function listDailyPage(
  db: Queryable,
  q: { userId: string; fromDay: number; toDay: number; after: DailyKey | undefined; limit: number },
): Promise<ExportDaily[]> {
  let query = db
    .selectFrom('usage_daily')
    .select(['day', 'source', 'model', ...COUNT_COLUMNS, 'cost_micros'])
    .select((eb) => eb.selectFrom('read_model_state').select('value').where('name', '=', COSTS_STATE).as('priced_by'))
    .where('user_id', '=', q.userId)
    .where('day', '>=', BigInt(q.fromDay))
    .where('day', '<=', BigInt(q.toDay));
  const after = q.after;
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('day', 'source', 'model'), '>', eb.tuple(after.day, after.source, after.model)),
    );
  const rows = await query.orderBy('day').orderBy('source').orderBy('model').limit(q.limit).execute();
  return rows.map((r) => ({
    day: r.day,
    source: r.source,
    model: r.model,
    ...countsOf(r),
    costMicros: BigInt(r.cost_micros),
    pricedBy: r.priced_by ?? null,
  }));
}
