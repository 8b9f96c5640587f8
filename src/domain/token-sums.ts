/** @fileoverview The five counts of a bucket and its billable tokens, summed or not: bigint, exact. */

export interface TokenSums {
  input: bigint;
  cached: bigint;
  output: bigint;
  reasoning: bigint;
  total: bigint;
  billable: bigint;
}

/** Adds `row` (times `sign`) into `into`. */
export function addSums(into: TokenSums, row: TokenSums, sign: 1n | -1n = 1n): void {
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

/** True when every count is zero. */
export function isZeroSums(d: TokenSums): boolean {
  return d.input === 0n && d.cached === 0n && d.output === 0n && d.reasoning === 0n && d.total === 0n && d.billable === 0n;
}

/** A fresh all-zero sum. */
export function zeroSums(): TokenSums {
  return { input: 0n, cached: 0n, output: 0n, reasoning: 0n, total: 0n, billable: 0n };
}

/** The six fields of a {@link TokenSums}, for code that treats them alike. */
export const COUNT_FIELDS_OF_SUMS: readonly (keyof TokenSums)[] = ['input', 'cached', 'output', 'reasoning', 'total', 'billable'];
