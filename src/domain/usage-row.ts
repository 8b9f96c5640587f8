/**
 * @fileoverview The shape analytics reads fold: one row of the per-user half-hour rollup
 * (already summed across devices and projects). Its counts are a {@link TokenCounts}, `bigint`
 * end to end; they become decimal strings only at the response edge.
 */
import type { TokenCounts } from './token-counts.js';

/** One rollup row: a user's usage in one UTC half-hour for one (source, model). */
export interface UsageRow extends Readonly<TokenCounts> {
  /** Start of the UTC half-hour bucket, epoch milliseconds (a multiple of 1,800,000). */
  readonly hourStart: number;
  readonly source: string;
  readonly model: string;
}
