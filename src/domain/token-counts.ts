/**
 * @fileoverview Token counts: the five counts of a bucket (input, cached input, output, reasoning,
 * total) and its billable tokens, one at a time or summed — `bigint`, exact end to end. They become
 * decimal strings only at the response edge ({@link toTokenCountsWire}).
 */

/** The counts of one bucket, row or sum (mutable so sums can add in place; readers take `Readonly<TokenCounts>`). */
export interface TokenCounts {
  input: bigint;
  cached: bigint;
  output: bigint;
  reasoning: bigint;
  total: bigint;
  /** Billable tokens as computed at ingest by the source's rule (billable.ts). */
  billable: bigint;
}

/** The four counts that get priced (pricing/rates.ts). */
export type PricedCounts = Pick<TokenCounts, 'input' | 'cached' | 'output' | 'reasoning'>;

/** The six fields of a {@link TokenCounts}, in the order packed forms use, for code that treats them alike. */
export const COUNT_FIELDS = [
  'input',
  'cached',
  'output',
  'reasoning',
  'total',
  'billable',
] as const satisfies readonly (keyof TokenCounts)[];

/** The six counts of `c`, as a new object (what a running sum starts from). */
export function copyCounts(c: Readonly<TokenCounts>): TokenCounts {
  return {
    input: c.input,
    cached: c.cached,
    output: c.output,
    reasoning: c.reasoning,
    total: c.total,
    billable: c.billable,
  };
}

/** A fresh all-zero {@link TokenCounts}. */
export function zeroCounts(): TokenCounts {
  return { input: 0n, cached: 0n, output: 0n, reasoning: 0n, total: 0n, billable: 0n };
}

/** Adds `row` (times `sign`) into `into` in place. */
export function addCounts(into: TokenCounts, row: Readonly<TokenCounts>, sign: 1n | -1n = 1n): void {
  // Two branches rather than a multiplication: every bigint operation allocates, and this runs
  // for every bucket of every upload.
  if (sign === 1n) {
    into.input += row.input;
    into.cached += row.cached;
    into.output += row.output;
    into.reasoning += row.reasoning;
    into.total += row.total;
    into.billable += row.billable;
  } else {
    into.input -= row.input;
    into.cached -= row.cached;
    into.output -= row.output;
    into.reasoning -= row.reasoning;
    into.total -= row.total;
    into.billable -= row.billable;
  }
}

/** Sum of the counts of `rows` (exact, no 2^53 limit). */
export function sumCounts(rows: Iterable<Readonly<TokenCounts>>): TokenCounts {
  const acc = zeroCounts();
  for (const row of rows) addCounts(acc, row);
  return acc;
}

/** True when every count is zero. */
export function isZeroCounts(c: Readonly<TokenCounts>): boolean {
  return (
    c.input === 0n && c.cached === 0n && c.output === 0n && c.reasoning === 0n && c.total === 0n && c.billable === 0n
  );
}

/** The counts of every daily/hourly/monthly row and of `totals` as they go on the wire. */
export interface TokenCountsWire {
  total_tokens: string;
  billable_total_tokens: string;
  input_tokens: string;
  cached_input_tokens: string;
  output_tokens: string;
  reasoning_output_tokens: string;
}

/** Counts in their wire form: exact decimal strings under the interface's field names. */
export function toTokenCountsWire(c: Readonly<TokenCounts>): TokenCountsWire {
  return {
    total_tokens: c.total.toString(),
    billable_total_tokens: c.billable.toString(),
    input_tokens: c.input.toString(),
    cached_input_tokens: c.cached.toString(),
    output_tokens: c.output.toString(),
    reasoning_output_tokens: c.reasoning.toString(),
  };
}
