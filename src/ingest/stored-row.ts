/** @fileoverview A stored bucket as both engines read it back (db/queries/ingest-rows.ts), mapped to the plan's shape. */
import type { StoredRow, StoredTuple } from '../db/queries/ingest-rows.js';
import { countsOf } from '../db/token-columns.js';
import type { StoredVariant } from './plan.js';

export function toStoredVariant(row: StoredRow): StoredVariant {
  return {
    hourStart: Number(row.hour_start),
    source: row.source,
    model: row.model,
    projectKey: row.project_key,
    projectRef: row.project_ref,
    ...countsOf(row),
  };
}

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
