/**
 * @fileoverview The bucket, the unit of stored usage (docs/architecture.md, "Glossary"): one
 * device's counts for one (half-hour, source, model, project key). An upload's buckets after
 * `normalize` (ingest/core/normalize.ts), the buckets stored in a device's packed day
 * (device-day-buckets.ts) and what a plan compares them with (ingest/core/plan.ts) are this one shape.
 */
import type { TokenCounts } from './token-counts.js';

export interface Bucket extends TokenCounts {
  /** The half-hour's start, epoch ms (the wire's `hour_start`). */
  hourStart: number;
  source: string;
  model: string;
  /** '' when the bucket carries no project. */
  projectKey: string;
  projectRef: string | null;
}
