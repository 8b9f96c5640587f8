/**
 * @fileoverview Where an upload is written: one transaction that stores buckets, keeps every read
 * model in step (usage_rollup, project_usage, and the derived usage_daily with its costs,
 * usage_day_prefix and the leaderboard's per-period totals), replaces the device's subscriptions,
 * marks the device as synced and records an upload event. Two engine-specific writers share the
 * pure plan and the pure derived deltas.
 */
import type { Db } from '../db/connect.js';
import type { TokenCounts } from '../pricing/rates.js';
import { DEFAULT_INGEST_BOUNDS, type IngestBounds } from './bounds.js';
import type { RatesOf } from './day-rates.js';
import type { NormalizedBucket } from './normalize.js';
import type { NormalizedSubscription } from './subscriptions.js';
import { PostgresIngestWriter } from './writer-postgres.js';
import { SqliteIngestWriter } from './writer-sqlite.js';

export interface IngestBatch {
  userId: string;
  deviceId: string;
  now: number;
  buckets: NormalizedBucket[];
  /** undefined when the upload did not mention subscriptions (the stored list stays). */
  subscriptions: NormalizedSubscription[] | undefined;
}

export interface IngestResult {
  inserted: number;
  skipped: number;
  projectInserted: number;
  projectSkipped: number;
}

export interface IngestWriter {
  apply(batch: IngestBatch): Promise<IngestResult>;
}

/** The cost in micro-dollars of one `usage_daily` row's counts (source, raw model, UTC epoch day). */
export type RowCoster = (source: string, model: string, utcEpochDay: number, counts: TokenCounts) => bigint;

/** The writer for the database's engine; `ratesOf` is the price service's day rates. */
export function createIngestWriter(db: Db, ratesOf: RatesOf, bounds: IngestBounds = DEFAULT_INGEST_BOUNDS): IngestWriter {
  if (db.dialect === 'sqlite') return new SqliteIngestWriter(db, ratesOf, bounds);
  return new PostgresIngestWriter(db, ratesOf, bounds);
}
