/**
 * @fileoverview Reads for exportUsage, one page at a time: a user's devices, then each device's
 * half-hour buckets in primary-key order, then the user's daily rows. Pages continue after the
 * last key read (keyset pagination on the primary keys), so a page costs the same however deep
 * into the data it is and memory holds one page at a time.
 */
import type { Kysely } from 'kysely';
import type { TokenCounts } from '../../domain/token-counts.js';
import type { Database } from '../schema.js';
import { COUNT_COLUMNS, countsOf } from '../token-columns.js';
import { COSTS_STATE } from './daily-costs.js';

type Q = Kysely<Database>;

export interface ExportDevice {
  id: string;
  name: string;
}

/** The user's devices, revoked ones included (their buckets stay). */
export async function listExportDevices(db: Q, userId: string): Promise<ExportDevice[]> {
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

/** Up to `limit` buckets of a device in [fromMs, toMs), after `after` in key order. */
export async function listBucketPage(
  db: Q,
  q: { deviceId: string; fromMs: number; toMs: number; after: BucketKey | undefined; limit: number },
): Promise<ExportBucket[]> {
  let query = db
    .selectFrom('usage_buckets')
    .select(['hour_start', 'source', 'model', 'project_key', 'project_ref', ...COUNT_COLUMNS])
    .where('device_num', '=', (eb) => eb.selectFrom('devices').select('num').where('id', '=', q.deviceId))
    .where('hour_start', '>=', BigInt(q.fromMs))
    .where('hour_start', '<', BigInt(q.toMs));
  const after = q.after;
  if (after) {
    query = query.where((eb) =>
      eb(
        eb.refTuple('hour_start', 'source', 'model', 'project_key'),
        '>',
        eb.tuple(after.hourStart, after.source, after.model, after.projectKey),
      ),
    );
  }
  const rows = await query
    .orderBy('hour_start')
    .orderBy('source')
    .orderBy('model')
    .orderBy('project_key')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({
    hourStart: r.hour_start,
    source: r.source,
    model: r.model,
    projectKey: r.project_key,
    projectRef: r.project_ref,
    ...countsOf(r),
  }));
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
  db: Q,
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
