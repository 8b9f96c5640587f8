/**
 * @fileoverview The shape analytics reads fold: one row of the per-user half-hour rollup
 * (already summed across devices and projects), and the six-field token totals built from it.
 * Counts are `bigint` end to end; they become decimal strings only at the response edge.
 */

/** One rollup row: a user's usage in one UTC half-hour for one (source, model). */
export interface UsageRow {
  /** Start of the UTC half-hour bucket, epoch milliseconds (a multiple of 1,800,000). */
  readonly hourStart: number;
  readonly source: string;
  readonly model: string;
  readonly input: bigint;
  readonly cachedInput: bigint;
  readonly output: bigint;
  readonly reasoning: bigint;
  readonly total: bigint;
  /** Billable tokens as computed at ingest by the source's rule. */
  readonly billable: bigint;
}

/** Summed token counts of any set of rows (mutable so folds can add in place). */
export interface TokenTotals {
  total: bigint;
  billable: bigint;
  input: bigint;
  cachedInput: bigint;
  output: bigint;
  reasoning: bigint;
}

/** The token fields of every daily/hourly/monthly row and of `totals` as they go on the wire. */
export interface TokenTotalsWire {
  total_tokens: string;
  billable_total_tokens: string;
  input_tokens: string;
  cached_input_tokens: string;
  output_tokens: string;
  reasoning_output_tokens: string;
}

/** A fresh all-zero {@link TokenTotals}. */
export function zeroTotals(): TokenTotals {
  return { total: 0n, billable: 0n, input: 0n, cachedInput: 0n, output: 0n, reasoning: 0n };
}

/** Adds the counts of `row` into `target` in place. */
export function addInto(target: TokenTotals, row: Readonly<TokenTotals>): void {
  target.total += row.total;
  target.billable += row.billable;
  target.input += row.input;
  target.cachedInput += row.cachedInput;
  target.output += row.output;
  target.reasoning += row.reasoning;
}

/** Sum of the token counts of `rows` (exact, no 2^53 limit). */
export function sumTotals(rows: Iterable<Readonly<TokenTotals>>): TokenTotals {
  const acc = zeroTotals();
  for (const row of rows) addInto(acc, row);
  return acc;
}

/** True when every count of `t` is zero. */
export function isZeroTotals(t: Readonly<TokenTotals>): boolean {
  return t.total === 0n && t.billable === 0n && t.input === 0n && t.cachedInput === 0n && t.output === 0n && t.reasoning === 0n;
}

/** Converts totals to their wire form: exact decimal strings under the interface's field names. */
export function toTokenTotalsWire(t: Readonly<TokenTotals>): TokenTotalsWire {
  return {
    total_tokens: t.total.toString(),
    billable_total_tokens: t.billable.toString(),
    input_tokens: t.input.toString(),
    cached_input_tokens: t.cachedInput.toString(),
    output_tokens: t.output.toString(),
    reasoning_output_tokens: t.reasoning.toString(),
  };
}
