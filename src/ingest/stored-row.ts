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

/** A stored bucket read as a tuple in {@link STORED_COLUMNS} order (SQLite's raw mode: no row object per read). */
export type StoredTuple = [bigint, string, string, string, string | null, bigint, bigint, bigint, bigint, bigint, bigint];

export function tupleToStoredVariant(t: StoredTuple): StoredVariant {
  return {
    hourStart: Number(t[0]),
    source: t[1],
    model: t[2],
    projectKey: t[3],
    projectRef: t[4],
    input: t[5],
    cached: t[6],
    output: t[7],
    reasoning: t[8],
    total: t[9],
    billable: t[10],
  };
}
