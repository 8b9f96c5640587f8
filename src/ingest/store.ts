/**
 * @fileoverview Where an upload is written: one transaction that stores buckets, keeps every read
 * model in step (usage_rollup, project_usage, and the derived usage_daily with its costs,
 * usage_days and the leaderboard's per-period totals), replaces the device's subscriptions,
 * marks the device as synced and records an upload event. Two engine-specific writers share the
 * pure plan and the pure derived deltas.
 */
import type { Db } from '../db/connect.js';
import { DEFAULT_INGEST_BOUNDS, type IngestBounds } from './core/bounds.js';
import { fixedPrices, type CostRates, type PriceSource, type RatesOf } from './core/day-rates.js';
import type { CheckpointPolicy } from '../db/sqlite-checkpoints.js';
import { PostgresIngestWriter } from './postgres/writer.js';
import type { IngestWriter } from './types.js';
import { SqliteIngestWriter } from './sqlite/writer.js';

/**
 * The writer for the database's engine; `prices` prices the rows it writes (fixed day rates, or the
 * stored costs' data). `sqliteCheckpoints` says when a SQLite file's WAL is copied into it
 * (db/sqlite-checkpoints.ts; tests shorten it).
 */
export function createIngestWriter(
  db: Db,
  prices: PriceSource<CostRates> | RatesOf,
  bounds: IngestBounds = DEFAULT_INGEST_BOUNDS,
  sqliteCheckpoints?: CheckpointPolicy,
): IngestWriter {
  const writePrices = typeof prices === 'function' ? fixedPrices(prices) : prices;
  if (db.dialect === 'sqlite') return new SqliteIngestWriter(db, writePrices, bounds, sqliteCheckpoints);
  return new PostgresIngestWriter(db, writePrices, bounds);
}
