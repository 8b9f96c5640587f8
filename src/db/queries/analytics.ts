/**
 * @fileoverview Reads behind the analytics endpoints. SQL sees only instants (epoch ms, UTC epoch
 * days, half-hour indexes): the zone never appears here. The service turns local ranges into
 * instant windows and cut points with the zone module and folds what these functions return.
 *
 * Three grains are read:
 * - raw rollup rows (one per user, UTC half-hour, source, model) for one day or for filtered views;
 * - `usage_daily` rows (one per UTC day, source and model, with the stored cost), summed per
 *   source and model in SQL, for totals, cost and model breakdown;
 * - "pieces" of the packed `usage_days` (day-pieces.ts).
 */
import type { Queryable } from '../connect.js';
import { sql } from 'kysely';
import type { UsageRow } from '../../domain/usage-row.js';
import type { PricedUsage } from '../../pricing/cost.js';
import type { Db } from '../connect.js';
import { rawRows } from '../raw-rows.js';
import { countsAt } from '../token-columns.js';
import { COSTS_FINGERPRINT_SQL, readCostsFingerprint } from './daily-costs.js';

import { DAY_MS, HALF_HOUR_MS } from '../../domain/calendar.js';

/*
 * The wide reads (a year of days) come back packed: one text column per group, entries
 * `a,b,c,…` joined by `;` (SQLite group_concat, PostgreSQL string_agg): the drivers materialise
 * each row of seven 64-bit columns at a cost, and one string a group and a split is several times
 * cheaper (docs/analytics.md). They go through {@link rawRows} (prepared once).
 */

const ROLLUP_SQL = {
  sqlite: `select hour_start, source, model, input, cached_input, output, reasoning, total, billable from usage_rollup
            where user_id = @p1 and hour_start >= @p2 and hour_start < @p3 and (@p4 is null or source = @p4)
              and (@p5 is null or model in (select value from json_each(@p5)))`,
  postgres: `select hour_start, source, model, input, cached_input, output, reasoning, total, billable from usage_rollup
              where user_id = $1 and hour_start >= $2 and hour_start < $3 and ($4::text is null or source = $4)
                and ($5::text[] is null or model = any($5::text[]))`,
};

/**
 * Whole UTC days of a window per (source, raw model): summed counts, summed stored costs, first and
 * last day, and the fingerprint of the data that priced those costs, read in the same statement.
 */
const DAY_MODEL_SQL = {
  sqlite: `select source, model, sum(input), sum(cached_input), sum(output), sum(reasoning), sum(total), sum(billable),
                  sum(cost_micros), min(day), max(day), (${COSTS_FINGERPRINT_SQL})
             from usage_daily
            where user_id = @p1 and day >= @p2 and day < @p3 and (@p4 is null or source = @p4) group by source, model`,
  postgres: `select source, model, sum(input), sum(cached_input), sum(output), sum(reasoning), sum(total), sum(billable),
                    sum(cost_micros), min(day), max(day), (${COSTS_FINGERPRINT_SQL})
               from usage_daily
              where user_id = $1 and day >= $2 and day < $3 and ($4::text is null or source = $4) group by source, model`,
};

/** Row filters applied in SQL. `models` is the list of raw model names to keep (undefined = all). */
export interface RowFilter {
  readonly source?: string | undefined;
  readonly models?: readonly string[] | undefined;
}

/** First half-hour index whose bucket start is at or after `ms` (buckets start on UTC half-hours). */
function slotAtOrAfter(ms: number): number {
  return Math.ceil(ms / HALF_HOUR_MS);
}

/**
 * Raw rollup rows of a user whose bucket starts in `[startMs, endMs)`, optionally filtered.
 * The right grain for one day (hourly) and the fallback for filtered daily/monthly/heatmap views.
 */
export async function listRollupRows(
  db: Db,
  userId: string,
  startMs: number,
  endMs: number,
  filter: RowFilter = {},
): Promise<UsageRow[]> {
  if (filter.models !== undefined && filter.models.length === 0) return [];
  const models =
    filter.models === undefined ? null : db.dialect === 'sqlite' ? JSON.stringify(filter.models) : [...filter.models];
  const rows = await rawRows(db, ROLLUP_SQL, [userId, BigInt(startMs), BigInt(endMs), filter.source ?? null, models]);
  return rows.map((r) => ({
    hourStart: Number(r[0]),
    source: r[1] as string,
    model: r[2] as string,
    ...countsAt(r, 3),
  }));
}

/** Usage of a window at (UTC day, source, model) grain, split the way its readers need it. */
export interface DayModelUsage {
  /** Summed counts per (source, raw model) (several rows may share a pair; `hourStart` is meaningless). */
  readonly totals: UsageRow[];
  /** Whole UTC days: the stored costs (`usage_daily.cost_micros`) summed per (source, raw model). */
  readonly priced: PricedUsage[];
  /** The raw rollup rows of the partial UTC days at either edge, still to be priced. */
  readonly edgeRows: UsageRow[];
  /**
   * Fingerprint of the price data that priced the stored costs in `priced` (null before any did):
   * the edges must be priced with the same data. Without stored costs, the data recorded at some
   * instant of the read.
   */
  readonly pricedBy: string | null;
}

/**
 * Usage of the buckets that start in `[startMs, endMs)`: whole UTC days come from `usage_daily`
 * (counts and stored costs summed in SQL, one row per source and model), the partial UTC days at
 * either edge from the rollup. The model filter is the caller's (in JS, by raw name or canonical id).
 */
export async function listDayModelUsage(
  db: Db,
  userId: string,
  startMs: number,
  endMs: number,
  source?: string,
): Promise<DayModelUsage> {
  const a = slotAtOrAfter(startMs) * HALF_HOUR_MS;
  const b = slotAtOrAfter(endMs) * HALF_HOUR_MS;
  if (b <= a) return { totals: [], priced: [], edgeRows: [], pricedBy: await readCostsFingerprint(db) };
  const firstFull = Math.ceil(a / DAY_MS);
  const endFull = Math.floor(b / DAY_MS);
  if (firstFull >= endFull) {
    const [rows, pricedBy] = await Promise.all([
      listRollupRows(db, userId, a, b, { source }),
      readCostsFingerprint(db),
    ]);
    return { totals: rows, priced: [], edgeRows: rows, pricedBy };
  }
  const [days, head, tail] = await Promise.all([
    rawRows(db, DAY_MODEL_SQL, [userId, BigInt(firstFull), BigInt(endFull), source ?? null]),
    a < firstFull * DAY_MS ? listRollupRows(db, userId, a, firstFull * DAY_MS, { source }) : Promise.resolve([]),
    endFull * DAY_MS < b ? listRollupRows(db, userId, endFull * DAY_MS, b, { source }) : Promise.resolve([]),
  ]);
  const edgeRows: UsageRow[] = [...head, ...tail];
  const totals: UsageRow[] = [...edgeRows];
  const priced: PricedUsage[] = [];
  let pricedBy: string | null = null;
  for (const row of days) {
    const [rowSource, rowModel, , , , , , , micros, firstDay, lastDay, fingerprint] = row;
    pricedBy = (fingerprint as string | null) ?? null;
    const src = rowSource as string;
    const model = rowModel as string;
    totals.push({ hourStart: firstFull * DAY_MS, source: src, model, ...countsAt(row, 2) });
    priced.push({
      source: src,
      model,
      firstDay: Number(firstDay),
      lastDay: Number(lastDay),
      micros: BigInt(micros as bigint),
    });
  }
  // No stored costs read: any data priced nothing here, so the one recorded now.
  return { totals, priced, edgeRows, pricedBy: days.length > 0 ? pricedBy : await readCostsFingerprint(db) };
}

/** Distinct raw model names a user has in the UTC days touching `[startMs, endMs)` (for resolving a `model` filter). */
export async function listModelsInWindow(
  db: Db,
  userId: string,
  startMs: number,
  endMs: number,
  source?: string,
): Promise<string[]> {
  let q = db.kysely
    .selectFrom('usage_daily')
    .select('model')
    .distinct()
    .where('user_id', '=', userId)
    .where('day', '>=', BigInt(Math.floor(startMs / DAY_MS)))
    .where('day', '<=', BigInt(Math.floor((endMs - 1) / DAY_MS)));
  if (source !== undefined) q = q.where('source', '=', source);
  const rows = await q.execute();
  return rows.map((r) => r.model);
}

/** Latest sync (upload or ping) of any of the user's devices, epoch ms, or null. */
export async function lastSyncAt(db: Queryable, userId: string): Promise<number | null> {
  const row = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.max('last_sync_at').as('last'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const v = row?.last;
  return v === null || v === undefined ? null : Number(v);
}

/** One project's all-time totals. */
export interface ProjectTotals {
  readonly projectKey: string;
  readonly projectRef: string | null;
  readonly total: bigint;
  readonly billable: bigint;
}

/** All-time totals per project (optionally one source), billable descending, then total, then key; at most `limit`. */
export async function listProjectTotals(
  db: Queryable,
  userId: string,
  limit: number,
  source?: string,
): Promise<ProjectTotals[]> {
  let q = db
    .selectFrom('project_usage')
    .select((eb) => [
      'project_key',
      eb.fn.max('project_ref').as('project_ref'),
      eb.fn.sum<bigint>('total').as('total'),
      eb.fn.sum<bigint>('billable').as('billable'),
    ])
    .where('user_id', '=', userId)
    .where('project_key', '<>', '');
  if (source !== undefined) q = q.where('source', '=', source);
  const rows = await q
    .groupBy('project_key')
    .orderBy(sql`sum(billable)`, 'desc')
    .orderBy(sql`sum(total)`, 'desc')
    .orderBy('project_key')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    projectKey: r.project_key,
    projectRef: r.project_ref,
    total: BigInt(r.total),
    billable: BigInt(r.billable),
  }));
}

/** A user's sign-up time (epoch ms), or undefined when the user does not exist. */
export async function userCreatedAt(db: Queryable, userId: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('created_at').where('id', '=', userId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.created_at);
}

/** One stored device subscription, newest first. */
export interface SubscriptionRow {
  readonly deviceId: string;
  readonly tool: string | null;
  readonly provider: string | null;
  readonly product: string | null;
  readonly planType: string | null;
  readonly rateLimitTier: string | null;
  readonly details: string;
  readonly updatedAt: number;
}

/** The subscriptions reported by the user's devices (newest upload first). */
export async function listSubscriptions(db: Queryable, userId: string): Promise<SubscriptionRow[]> {
  const rows = await db
    .selectFrom('device_subscriptions')
    .select(['device_id', 'tool', 'provider', 'product', 'plan_type', 'rate_limit_tier', 'details', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('device_id')
    .orderBy('position')
    .execute();
  return rows.map((r) => ({
    deviceId: r.device_id,
    tool: r.tool,
    provider: r.provider,
    product: r.product,
    planType: r.plan_type,
    rateLimitTier: r.rate_limit_tier,
    details: r.details,
    updatedAt: Number(r.updated_at),
  }));
}

/** Counts and latest activity of the user's non-revoked devices. */
export interface InstallSummary {
  readonly activeDevices: number;
  readonly lastSeenAt: number | null;
  readonly lastSyncAt: number | null;
}

export async function installSummary(db: Queryable, userId: string): Promise<InstallSummary> {
  const row = await db
    .selectFrom('devices')
    .select((eb) => [
      eb.fn.countAll<bigint>().as('n'),
      eb.fn.max('last_seen_at').as('seen'),
      eb.fn.max('last_sync_at').as('sync'),
    ])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  const num = (v: bigint | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));
  return { activeDevices: Number(row?.n ?? 0n), lastSeenAt: num(row?.seen), lastSyncAt: num(row?.sync) };
}

/** The account's count of stored raw buckets, kept by the ingest writers (migration 0017); 0 without a row. */
export async function storedBucketCount(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom('user_storage')
    .select('stored_buckets')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.stored_buckets ?? 0n);
}
