/**
 * @fileoverview Token counts of many rows packed in columns: the shape the local-day and month
 * folds of a long range work on (a year is ~730 prefix pieces in New York). Six counts per row in
 * {@link COUNT_FIELDS} order, in one flat array, so a fold allocates nothing per row.
 *
 * Counts are doubles when the reader has proved that every sum of them is exact — the sum of
 * their absolute values is at most 2^53 − 1, so no partial sum of any subset can round — and
 * `bigint`s otherwise. Doubles are several times cheaper to parse, add and print; the decimal
 * strings on the wire are the same either way.
 */

import { COUNT_FIELDS, toTokenCountsWire, type TokenCountsWire } from './token-counts.js';
import type { UsageRow } from './usage-row.js';

/** Number of counts per row ({@link COUNT_FIELDS}, in that order). */
export const COUNT_WIDTH = COUNT_FIELDS.length;
const INPUT = 0;
const CACHED = 1;
const OUTPUT = 2;
const REASONING = 3;
const TOTAL = 4;
const BILLABLE = 5;

/** Flat counts, {@link COUNT_WIDTH} per row: doubles only when every sum of them is exact (see the file comment). */
export type CountArray = Float64Array | bigint[];

/** Rows in columns: `hourStarts[i]` (epoch ms) and counts `i·6 … i·6 + 5`. */
export interface UsageColumns {
  readonly hourStarts: readonly number[];
  readonly counts: CountArray;
}

/** Largest total of absolute values for which double arithmetic on the counts stays exact. */
export const EXACT_DOUBLE_LIMIT = Number.MAX_SAFE_INTEGER;

/** Rows as columns (bigint counts: rows carry no bound). */
export function columnsFromRows(rows: readonly UsageRow[]): UsageColumns {
  const hourStarts = new Array<number>(rows.length);
  const counts = new Array<bigint>(rows.length * COUNT_WIDTH);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as UsageRow;
    const o = i * COUNT_WIDTH;
    hourStarts[i] = r.hourStart;
    counts[o + INPUT] = r.input;
    counts[o + CACHED] = r.cached;
    counts[o + OUTPUT] = r.output;
    counts[o + REASONING] = r.reasoning;
    counts[o + TOTAL] = r.total;
    counts[o + BILLABLE] = r.billable;
  }
  return { hourStarts, counts };
}

/**
 * Sums the rows into `buckets` groups: row i goes to group `index[i]` (rows with an index outside
 * `0 … buckets − 1` are left out). The result has the kind of `counts` (doubles stay exact: a sum
 * of a subset is bounded by the sum of all absolute values).
 */
export function sumByIndex(counts: CountArray, index: Int32Array, buckets: number): CountArray {
  if (counts instanceof Float64Array) {
    const out = new Float64Array(buckets * COUNT_WIDTH);
    for (let i = 0; i < index.length; i++) {
      const b = index[i] as number;
      if (b < 0 || b >= buckets) continue;
      const src = i * COUNT_WIDTH;
      const dst = b * COUNT_WIDTH;
      for (let f = 0; f < COUNT_WIDTH; f++) out[dst + f] = (out[dst + f] as number) + (counts[src + f] as number);
    }
    return out;
  }
  const out = new Array<bigint>(buckets * COUNT_WIDTH).fill(0n);
  for (let i = 0; i < index.length; i++) {
    const b = index[i] as number;
    if (b < 0 || b >= buckets) continue;
    const src = i * COUNT_WIDTH;
    const dst = b * COUNT_WIDTH;
    for (let f = 0; f < COUNT_WIDTH; f++) out[dst + f] = (out[dst + f] as bigint) + (counts[src + f] as bigint);
  }
  return out;
}

/** Billable tokens of row `i`. */
export function billableAt(counts: CountArray, i: number): bigint {
  const v = counts[i * COUNT_WIDTH + BILLABLE] as number | bigint;
  return typeof v === 'bigint' ? v : BigInt(v);
}

/** Row `i` in wire form (exact decimal strings; a double holding an integer below 2^53 prints the same digits as its bigint). */
export function totalsWireAt(counts: CountArray, i: number): TokenCountsWire {
  const o = i * COUNT_WIDTH;
  if (counts instanceof Float64Array) {
    return {
      total_tokens: String(counts[o + TOTAL]),
      billable_total_tokens: String(counts[o + BILLABLE]),
      input_tokens: String(counts[o + INPUT]),
      cached_input_tokens: String(counts[o + CACHED]),
      output_tokens: String(counts[o + OUTPUT]),
      reasoning_output_tokens: String(counts[o + REASONING]),
    };
  }
  return toTokenCountsWire({
    total: counts[o + TOTAL] as bigint,
    billable: counts[o + BILLABLE] as bigint,
    input: counts[o + INPUT] as bigint,
    cached: counts[o + CACHED] as bigint,
    output: counts[o + OUTPUT] as bigint,
    reasoning: counts[o + REASONING] as bigint,
  });
}
