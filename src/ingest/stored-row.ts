/** @fileoverview A stored bucket as both engines read it back, and its mapping to the plan's shape. */
import type { StoredVariant } from './plan.js';

export interface StoredRow {
  hour_start: bigint;
  source: string;
  model: string;
  project_key: string;
  project_ref: string | null;
  input: bigint;
  cached_input: bigint;
  output: bigint;
  reasoning: bigint;
  total: bigint;
  billable: bigint;
}

export const STORED_COLUMNS =
  'hour_start, source, model, project_key, project_ref, input, cached_input, output, reasoning, total, billable';

export function toStoredVariant(row: StoredRow): StoredVariant {
  return {
    hourStart: Number(row.hour_start),
    source: row.source,
    model: row.model,
    projectKey: row.project_key,
    projectRef: row.project_ref,
    input: row.input,
    cached: row.cached_input,
    output: row.output,
    reasoning: row.reasoning,
    total: row.total,
    billable: row.billable,
  };
}
