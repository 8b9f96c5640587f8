/** @fileoverview Reads of stored usage that several features share. */
import { sql, type Kysely } from 'kysely';
import { zeroCounts, type TokenCounts } from '../../domain/token-counts.js';
import type { Database } from '../schema.js';
import { COUNT_COLUMNS } from '../token-columns.js';

type Q = Kysely<Database>;

/**
 * The sums of the count columns, for a query over one table that has them (a join with `devices`
 * too: it has none of these columns).
 */
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
export function sumUserUsage(db: Q, userId: string): Promise<TokenCounts> {
  return countsOfSums(
    db.selectFrom('usage_rollup').select(COUNT_SUMS).where('user_id', '=', userId).executeTakeFirst(),
  );
}

/** Totals recomputed from the raw buckets of the user's devices: the check that the rollup stays in step. */
export function sumUserBuckets(db: Q, userId: string): Promise<TokenCounts> {
  return countsOfSums(
    db
      .selectFrom('usage_buckets as b')
      .innerJoin('devices as d', 'd.num', 'b.device_num')
      .select(COUNT_SUMS)
      .where('d.user_id', '=', userId)
      .executeTakeFirst(),
  );
}

export async function listDeviceBuckets(db: Q, deviceId: string) {
  return db
    .selectFrom('usage_buckets')
    .select(['hour_start', 'source', 'model', 'project_key', 'project_ref', ...COUNT_COLUMNS])
    .where('device_num', '=', (eb) => eb.selectFrom('devices').select('num').where('id', '=', deviceId))
    .orderBy('hour_start')
    .orderBy('source')
    .orderBy('model')
    .orderBy('project_key')
    .execute();
}

export async function listProjectUsage(db: Q, userId: string) {
  return db
    .selectFrom('project_usage')
    .select(['project_key', 'source', 'project_ref', 'total', 'billable'])
    .where('user_id', '=', userId)
    .orderBy('project_key')
    .orderBy('source')
    .execute();
}

export async function countIngestEvents(db: Q, deviceId: string): Promise<number> {
  const row = await db
    .selectFrom('ingest_events')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
