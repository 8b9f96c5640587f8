/**
 * @fileoverview Money is integer micro-dollars (`bigint`) everywhere; it becomes text with six
 * decimals only at the response edge.
 */

import { toTokenCountsWire, type TokenCounts, type TokenCountsWire } from '../domain/token-counts.js';

/** Micro-dollars in one US dollar. */
export const MICROS_PER_USD = 1_000_000n;

/** Formats integer micro-dollars as a decimal string with exactly six places, e.g. `1234567n` → `"1.234567"`. */
export function formatMicros(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const whole = abs / MICROS_PER_USD;
  const frac = (abs % MICROS_PER_USD).toString().padStart(6, '0');
  return `${negative ? '-' : ''}${whole.toString()}.${frac}`;
}

/**
 * The inverse of formatMicros: a non-negative decimal USD amount (`"12.5"`, `"0.000001"`; places past
 * the sixth are dropped) as integer micro-dollars. The text must already be checked as digits with
 * at most one point (a schema's pattern).
 */
export function parseMicros(usd: string): bigint {
  const [whole = '0', frac = ''] = usd.split('.');
  return BigInt(whole || '0') * MICROS_PER_USD + BigInt(frac.padEnd(6, '0').slice(0, 6));
}

/** Response `totals`: the six token fields plus `total_cost_usd`, all decimal strings. */
export type TokenCountsWithCostWire = TokenCountsWire & { total_cost_usd: string };

/** Builds a response `totals` object from token totals and a cost in micro-dollars. */
export function totalsWithCost(totals: Readonly<TokenCounts>, costMicros: bigint): TokenCountsWithCostWire {
  return { ...toTokenCountsWire(totals), total_cost_usd: formatMicros(costMicros) };
}
