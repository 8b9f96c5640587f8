/**
 * @fileoverview Stored counts read back as the domain's {@link TokenCounts}: the one place that
 * maps the SQL count columns (`input, cached_input, output, reasoning, total, billable`, schema.ts's
 * `TokenColumns`) onto the TypeScript fields (`cached_input` → `cached`).
 */
import type { TokenCounts } from '../domain/token-counts.js';
import type { TokenColumns } from './schema.js';

/** The six count columns, in their stored order (what a select of a row's counts lists). */
export const COUNT_COLUMNS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'] as const;

/** The count columns of a row as selected by name. */
export type CountColumns = { readonly [K in keyof TokenColumns]: bigint };

/** The counts of a row selected by column name. */
export function countsOf(row: CountColumns): TokenCounts {
  return {
    input: row.input,
    cached: row.cached_input,
    output: row.output,
    reasoning: row.reasoning,
    total: row.total,
    billable: row.billable,
  };
}

/**
 * The counts of a row read as an array (db/raw-rows.ts), its six count columns from `at` on in
 * the columns' order (input, cached_input, output, reasoning, total, billable).
 */
export function countsAt(values: readonly unknown[], at: number): TokenCounts {
  return {
    input: BigInt(values[at] as bigint),
    cached: BigInt(values[at + 1] as bigint),
    output: BigInt(values[at + 2] as bigint),
    reasoning: BigInt(values[at + 3] as bigint),
    total: BigInt(values[at + 4] as bigint),
    billable: BigInt(values[at + 5] as bigint),
  };
}
