/**
 * @fileoverview What an ingest writer takes and answers, shared by the engine writers and their
 * group writers (a leaf module, so the writers and `store.ts`, which picks one, import no cycle).
 */
import type { Bucket } from '../domain/bucket.js';
import { Unauthenticated } from '../domain/errors.js';
import type { OtlpStateChanges } from '../db/queries/otlp-writes.js';
import type { NormalizedSubscription } from './core/subscriptions.js';

export interface IngestBatch {
  userId: string;
  deviceId: string;
  now: number;
  buckets: Bucket[];
  /** undefined when the upload did not mention subscriptions (the stored list stays). */
  subscriptions: NormalizedSubscription[] | undefined;
  /** The OTLP receiver's state behind these buckets, stored in the same transaction (docs/otlp.md). */
  otlp?: OtlpStateChanges | undefined;
}

export interface IngestResult {
  inserted: number;
  skipped: number;
  projectInserted: number;
  projectSkipped: number;
}

/** How one upload of a group ended. */
export type Outcome = { ok: true; result: IngestResult } | { ok: false; error: unknown };

export interface IngestWriter {
  apply(batch: IngestBatch): Promise<IngestResult>;
  /** Releases what the writer holds beyond the database (the SQLite writer thread); called once no upload is in flight. */
  close(): Promise<void>;
}

/**
 * What both writers answer for an upload whose device no longer exists (its account deleted since
 * the upload was authenticated): a 401, nothing of it stored.
 */
export function deviceGone(): Unauthenticated {
  return new Unauthenticated('The device no longer exists.');
}
