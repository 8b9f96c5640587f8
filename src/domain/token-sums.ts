/** @fileoverview The five counts of a bucket and its billable tokens, summed or not: bigint, exact. */

export interface TokenSums {
  input: bigint;
  cached: bigint;
  output: bigint;
  reasoning: bigint;
  total: bigint;
  billable: bigint;
}
