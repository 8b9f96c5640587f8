/** @fileoverview A stored bucket as both engines' ingest writers read it back (mapped to the plan's shape in src/ingest/stored-row.ts). */

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

/** A stored bucket read as a tuple in {@link STORED_COLUMNS} order (SQLite's raw mode: no row object per read). */
export type StoredTuple = [
  bigint,
  string,
  string,
  string,
  string | null,
  bigint,
  bigint,
  bigint,
  bigint,
  bigint,
  bigint,
];
