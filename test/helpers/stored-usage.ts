/** @fileoverview Test reads of stored usage: sums and raw buckets, to check what uploads stored. */
import { sql } from 'kysely';
import { unpackDayBuckets } from '../../src/domain/device-day-buckets.js';
import { addCounts, zeroCounts, type TokenCounts } from '../../src/domain/token-counts.js';
import type { Queryable } from '../../src/db/connect.js';
import type { CountColumns } from '../../src/db/token-columns.js';

/** The sums of the count columns, for a query over one table that has them. */
const COUNT_SUMS = [
  sql<bigint | null>`sum(input)`.as('input'),
  sql<bigint | null>`sum(cached_input)`.as('cached'),
  sql<bigint | null>`sum(output)`.as('output'),
  sql<bigint | null>`sum(reasoning)`.as('reasoning'),
  sql<bigint | null>`sum(total)`.as('total'),
  sql<bigint | null>`sum(billable)`.as('billable'),
];

/** {@link COUNT_SUMS} as counts; no row (or NULL sums) is zero. */
async function countsOfSums(
  rows: Promise<{ [k in keyof TokenCounts]: bigint | null } | undefined>,
): Promise<TokenCounts> {
  const row = await rows;
  if (!row) return zeroCounts();
  return {
    input: row.input ?? 0n,
    cached: row.cached ?? 0n,
    output: row.output ?? 0n,
    reasoning: row.reasoning ?? 0n,
    total: row.total ?? 0n,
    billable: row.billable ?? 0n,
  };
}

/** All-time totals of a user from the rollup (across devices and projects). */
export function sumUserUsage(db: Queryable, userId: string): Promise<TokenCounts> {
  return countsOfSums(
    db.selectFrom('usage_rollup').select(COUNT_SUMS).where('user_id', '=', userId).executeTakeFirst(),
  );
}

/**
 * Totals recomputed from the raw buckets of the user's devices (`usage_device_days`, unpacked and
 * summed here): the check that the rollup stays in step.
 */
export async function sumUserBuckets(db: Queryable, userId: string): Promise<TokenCounts> {
  const rows = await db
    .selectFrom('usage_device_days as b')
    .innerJoin('devices as d', 'd.num', 'b.device_num')
    .select(['b.day', 'b.buckets'])
    .where('d.user_id', '=', userId)
    .execute();
  const sums = zeroCounts();
  for (const r of rows) for (const b of unpackDayBuckets(Number(r.day), r.buckets)) addCounts(sums, b);
  return sums;
}

/** One raw bucket as {@link listDeviceBuckets} lists it: the names of the columns it was once stored in. */
export interface DeviceBucketRow extends CountColumns {
  hour_start: bigint;
  source: string;
  model: string;
  /** '' when the bucket carries no project. */
  project_key: string;
  project_ref: string | null;
}

/** Every raw bucket of a device, in key order (days in order, each unpacked in key order). */
export async function listDeviceBuckets(db: Queryable, deviceId: string): Promise<DeviceBucketRow[]> {
  const rows = await db
    .selectFrom('usage_device_days')
    .select(['day', 'buckets'])
    .where('device_num', '=', (eb) => eb.selectFrom('devices').select('num').where('id', '=', deviceId))
    .orderBy('day')
    .execute();
  // Days in order, each day's buckets sorted: every bucket falls in its row's day.
  const buckets = rows.flatMap((r) => unpackDayBuckets(Number(r.day), r.buckets));
  return buckets.map((b) => ({
    hour_start: BigInt(b.hourStart),
    source: b.source,
    model: b.model,
    project_key: b.projectKey,
    project_ref: b.projectRef,
    input: b.input,
    cached_input: b.cached,
    output: b.output,
    reasoning: b.reasoning,
    total: b.total,
    billable: b.billable,
  }));
}

export async function listProjectUsage(db: Queryable, userId: string) {
  return db
    .selectFrom('project_usage')
    .select(['project_key', 'source', 'project_ref', 'total', 'billable'])
    .where('user_id', '=', userId)
    .orderBy('project_key')
    .orderBy('source')
    .execute();
}

export async function countIngestEvents(db: Queryable, deviceId: string): Promise<number> {
  const row = await db
    .selectFrom('ingest_events')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * `usage_blocks` as stored and as its definition from `usage_daily` (migration 0027): per (user,
 * block of 16 UTC days, source, model), the days' counts and stored costs summed; rows of zeros
 * left out of both. Equal maps mean the blocks are in step.
 */
export async function blocksAndTheirDays(
  db: Queryable,
): Promise<{ stored: Map<string, string>; fromDays: Map<string, string> }> {
  const columns = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable', 'cost_micros'] as const;
  const fromDays = new Map<string, bigint[]>();
  for (const r of await db.selectFrom('usage_daily').selectAll().execute()) {
    const k = `${r.user_id}|${Math.floor(Number(r.day) / 16)}|${r.source}|${r.model}`;
    const values = columns.map((c) => BigInt(r[c]));
    const cur = fromDays.get(k);
    if (cur === undefined) fromDays.set(k, values);
    else values.forEach((v, i) => (cur[i] = (cur[i] as bigint) + v));
  }
  const stored = new Map<string, string>();
  for (const r of await db.selectFrom('usage_blocks').selectAll().execute()) {
    const values = columns.map((c) => BigInt(r[c]));
    if (values.some((v) => v !== 0n)) stored.set(`${r.user_id}|${r.block}|${r.source}|${r.model}`, values.join(','));
  }
  const nonZero = [...fromDays].filter(([, v]) => v.some((x) => x !== 0n));
  return { stored, fromDays: new Map(nonZero.map(([k, v]) => [k, v.join(',')])) };
}
