/** @fileoverview Reads of stored usage that several features share. */
import type { Kysely } from 'kysely';
import { zeroCounts, type TokenCounts } from '../../domain/token-counts.js';
import type { Database } from '../schema.js';
import { COUNT_COLUMNS } from '../token-columns.js';

type Q = Kysely<Database>;

async function sumUserTable(db: Q, table: 'usage_rollup' | 'usage_buckets', userId: string): Promise<TokenCounts> {
  const row = await db
    .selectFrom(table)
    .select((eb) => [
      eb.fn.sum<bigint | null>('input').as('input'),
      eb.fn.sum<bigint | null>('cached_input').as('cached'),
      eb.fn.sum<bigint | null>('output').as('output'),
      eb.fn.sum<bigint | null>('reasoning').as('reasoning'),
      eb.fn.sum<bigint | null>('total').as('total'),
      eb.fn.sum<bigint | null>('billable').as('billable'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
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
  return sumUserTable(db, 'usage_rollup', userId);
}

/** Totals recomputed from the raw buckets: the check that the rollup stays in step. */
export function sumUserBuckets(db: Q, userId: string): Promise<TokenCounts> {
  return sumUserTable(db, 'usage_buckets', userId);
}

export async function listDeviceBuckets(db: Q, deviceId: string) {
  return db
    .selectFrom('usage_buckets')
    .select(['hour_start', 'source', 'model', 'project_key', 'project_ref', ...COUNT_COLUMNS])
    .where('device_id', '=', deviceId)
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
