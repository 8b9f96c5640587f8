/**
 * @fileoverview What local usage costs, computed by the server's own pricing code
 * (src/pricing: the same bundled price data, per-source pricing modes, per (source, model, UTC day)
 * truncation to micro-dollars), so `report` shows the dashboard's figures to the micro-dollar for
 * the same range and zone — as long as the server still prices with the data this CLI was built
 * with (`doctor` says when the versions differ).
 */
import type { UsageRow } from '../domain/usage-row.js';
import type { CostAccumulator } from '../pricing/cost.js';
import { formatMicros } from '../pricing/money.js';
import type { Counts } from './usage.js';

export interface PricedBucket {
  hourStart: number;
  source: string;
  model: string;
  counts: Counts;
}

/** Micro-dollars of a set of half-hour buckets (one accumulator: Σ of truncated per-day costs). */
export type Pricer = (buckets: Iterable<PricedBucket>) => bigint;

/**
 * The pricer, loaded on first use: the price data is a large module, and a sync that prices
 * nothing (quiet, or nothing new) should not pay for evaluating it at start-up.
 */
export async function loadPricer(): Promise<Pricer> {
  const [{ createCostAccumulator }, { createPriceService }] = await Promise.all([
    import('../pricing/cost.js'),
    import('../pricing/price-service.js'),
  ]);
  const prices = createPriceService();
  return (buckets) => priceWith(createCostAccumulator(prices), buckets);
}

function priceWith(acc: CostAccumulator, buckets: Iterable<PricedBucket>): bigint {
  for (const b of buckets) {
    const c = b.counts;
    const row: UsageRow = {
      hourStart: b.hourStart,
      source: b.source,
      model: b.model,
      input: BigInt(c.input),
      cached: BigInt(c.cached),
      output: BigInt(c.output),
      reasoning: BigInt(c.reasoning),
      total: BigInt(c.total),
      billable: 0n,
    };
    acc.add(row);
  }
  return acc.totalMicros();
}

/** Six-decimal dollars, as the server's `total_cost_usd`. */
export const microsToUsd = formatMicros;

/** Dollars for a person: `$3.10`, `<$0.01`, `$0.00`. */
export function formatUsd(micros: bigint): string {
  if (micros > 0n && micros < 10_000n) return '<$0.01';
  const negative = micros < 0n;
  const cents = ((negative ? -micros : micros) + 5_000n) / 10_000n;
  return `${negative ? '-' : ''}$${(cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${(cents % 100n).toString().padStart(2, '0')}`;
}

const UNITS: readonly [number, string][] = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** Token figure for a person, as the dashboard shows it (three significant digits): `812`, `48.2K`, `1.24M`, `3.05B`. */
export function formatTokens(n: number): string {
  const abs = Math.abs(n);
  for (const [size, unit] of UNITS) {
    if (abs >= size * 0.9995) {
      const scaled = n / size;
      const digits = Math.abs(scaled) >= 100 ? 0 : Math.abs(scaled) >= 10 ? 1 : 2;
      const text = scaled.toFixed(digits);
      return `${text.includes('.') ? text.replace(/\.?0+$/, '') : text}${unit}`;
    }
  }
  return String(Math.round(n));
}
