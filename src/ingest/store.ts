/**
 * @fileoverview Where an upload is written: one transaction that stores buckets, keeps the read
 * models (usage_rollup, project_usage) in step, replaces the device's subscriptions, marks the
 * device as synced and records an upload event. Two engine-specific writers share the pure plan.
 */
import type { Db } from '../db/connect.js';
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

export function createIngestWriter(db: Db): IngestWriter {
  return db.dialect === 'sqlite' ? new SqliteIngestWriter(db) : new PostgresIngestWriter(db);
}
