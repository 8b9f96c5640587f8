/**
 * @fileoverview The shape analytics reads fold: one row of the per-user half-hour rollup
 * (already summed across devices and projects). Its counts are a {@link TokenCounts}, `bigint`
 * end to end; they become decimal strings only at the response edge.
 */
import { addCounts, type TokenCounts } from './token-counts.js';

/** One rollup row: a user's usage in one UTC half-hour for one (source, model). */
export interface UsageRow extends Readonly<TokenCounts> {
  /** Start of the UTC half-hour bucket, epoch milliseconds (a multiple of 1,800,000). */
  readonly hourStart: number;
  readonly source: string;
  readonly model: string;
}

/** A row whose counts are still being summed. */
export type UsageRowSum = TokenCounts & { hourStart: number; source: string; model: string };

/**
 * Adds `counts` of (`source`, `model`) into the row kept in `sums` under `key`, making it the row of
 * `hourStart` the first time: how a read folds buckets into rows.
 */
export function addToRow(
  sums: Map<string, UsageRowSum>,
  key: string,
  hourStart: number,
  counts: Readonly<TokenCounts> & { readonly source: string; readonly model: string },
): void {
  const sum = sums.get(key);
  if (sum !== undefined) return addCounts(sum, counts);
  const { input, cached, output, reasoning, total, billable, source, model } = counts;
  sums.set(key, { hourStart, source, model, input, cached, output, reasoning, total, billable });
}
