/**
 * @fileoverview Exact cost arithmetic. Rates are taken from the price database once per
 * (model, day) and turned into integers: femto-dollars per token (1 USD per million tokens =
 * 10^9 femto-dollars per token). Costs are summed exactly in femto-dollars and truncated to
 * micro-dollars once per (source, raw model, UTC day) by the caller.
 *
 * The mapping onto the library's usage fields (see {@link libraryUsage}) is what these
 * formulas compute: the library charges `input_tokens − cache_read_tokens` at the input rate,
 * `cache_read_tokens` at the cache-read rate, `output_tokens − output_reasoning_tokens` at the
 * output rate and `output_reasoning_tokens` at the reasoning rate; a missing cache-read or
 * reasoning price means those tokens fall back to the input or output rate.
 */

import type { ModelPrice, TieredPrices, Usage } from '@pydantic/genai-prices';
import type { PricedCounts } from '../domain/token-counts.js';
import type { PricingMode } from './modes.js';

/** Femto-dollars per micro-dollar; also femto-dollars per token for a rate of 1 USD per million tokens. */
export const FEMTO_PER_MICRO = 1_000_000_000n;

/** Per-token rates in integer femto-dollars (10^-15 USD), base tier: one per priced count. */
export type TokenRates = { readonly [K in keyof PricedCounts]: bigint };

/**
 * Converts a price in USD per million tokens to integer femto-dollars per token, exactly for any
 * decimal with up to nine fractional digits (it reads the number's shortest decimal text).
 */
export function usdPerMtokToFemto(usdPerMtok: number): bigint {
  if (!Number.isFinite(usdPerMtok) || usdPerMtok < 0) throw new RangeError(`invalid price ${usdPerMtok}`);
  const text = usdPerMtok.toString();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return BigInt(Math.round(usdPerMtok * 1e9)); // exponent form: tiny or huge values
  const whole = BigInt(match[1] as string);
  const fracDigits = (match[2] ?? '').slice(0, 10).padEnd(10, '0');
  // Round half up on the 10th fractional digit.
  const frac = BigInt(fracDigits.slice(0, 9)) + (Number(fracDigits[9]) >= 5 ? 1n : 0n);
  return whole * FEMTO_PER_MICRO + frac;
}

function baseOf(value: number | TieredPrices | undefined): number | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' ? value : value.base;
}

/**
 * Base-tier token rates of a database price entry, or null when it prices neither input nor output
 * tokens (such a model cannot price our counts). Cache reads without their own price cost the input
 * rate and reasoning without its own price costs the output rate, as in the library.
 */
export function ratesFromModelPrice(price: ModelPrice): TokenRates | null {
  const input = baseOf(price['input_mtok']);
  const output = baseOf(price['output_mtok']);
  if (input === undefined && output === undefined) return null;
  const inputRate = usdPerMtokToFemto(input ?? 0);
  const outputRate = usdPerMtokToFemto(output ?? 0);
  const cacheRead = baseOf(price['cache_read_mtok']);
  const reasoning = baseOf(price['output_reasoning_mtok']);
  return {
    input: inputRate,
    cached: cacheRead === undefined ? inputRate : usdPerMtokToFemto(cacheRead),
    output: outputRate,
    reasoning: reasoning === undefined ? outputRate : usdPerMtokToFemto(reasoning),
  };
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/**
 * How our counts fill the library's usage fields. `overlap`: input and output already contain cached
 * and reasoning (cached/reasoning are clamped to them). `add`: the counts are disjoint, so the
 * library's inclusive `input_tokens`/`output_tokens` are the sums.
 */
export function libraryUsage(counts: Readonly<PricedCounts>, mode: PricingMode): Usage {
  if (mode === 'overlap') {
    return {
      input_tokens: Number(counts.input),
      cache_read_tokens: Number(min(counts.cached, counts.input)),
      output_tokens: Number(counts.output),
      output_reasoning_tokens: Number(min(counts.reasoning, counts.output)),
    };
  }
  return {
    input_tokens: Number(counts.input + counts.cached),
    cache_read_tokens: Number(counts.cached),
    output_tokens: Number(counts.output + counts.reasoning),
    output_reasoning_tokens: Number(counts.reasoning),
  };
}

/** Exact cost in femto-dollars of counts under a mode and rates (same leaves as {@link libraryUsage}); never negative. */
export function costFemto(counts: Readonly<PricedCounts>, mode: PricingMode, rates: TokenRates): bigint {
  let uncached: bigint;
  let cached: bigint;
  let plainOutput: bigint;
  let reasoning: bigint;
  if (mode === 'overlap') {
    cached = min(counts.cached, counts.input);
    uncached = counts.input - cached;
    reasoning = min(counts.reasoning, counts.output);
    plainOutput = counts.output - reasoning;
  } else {
    uncached = counts.input;
    cached = counts.cached;
    plainOutput = counts.output;
    reasoning = counts.reasoning;
  }
  return uncached * rates.input + cached * rates.cached + plainOutput * rates.output + reasoning * rates.reasoning;
}

/** Truncates femto-dollars to whole micro-dollars (toward zero). */
export function femtoToMicros(femto: bigint): bigint {
  return femto / FEMTO_PER_MICRO;
}
