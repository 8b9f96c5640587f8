/**
 * @fileoverview Where prices come from, by price data set (docs/pricing.md, "Stored costs"): a
 * {@link PriceSource} answers the data this process last saw and the data of a given fingerprint.
 * Answers take a source of price services (`PriceSource<PriceService>`, services/price-book.ts); the
 * ingest writers a source of rates (`PriceSource<CostRates>`, resolved per upload by
 * ingest/core/day-rates.ts). Defined here, below both the writers (ingest/) and the service that
 * serves them.
 */
import type { TokenRates } from './rates.js';

/** The rates of a raw model on a UTC epoch day (the price service's `priceOn(...).rates`). */
export type RatesOf = (model: string, utcEpochDay: number) => TokenRates;

/** The rates of one price data set, named by its fingerprint (null: fixed rates, no data set to check). */
export interface CostRates {
  readonly fingerprint: string | null;
  readonly ratesOf: RatesOf;
}

/** Where prices come from: the data the stored costs are priced by, as a price service or as rates. */
export interface PriceSource<T> {
  /** The data the stored costs are priced by, as this process last saw it (no I/O). */
  serving(): T;
  /**
   * The data with this fingerprint (the data some stored costs were read priced by, or that a
   * writer's transaction found recorded).
   */
  of(fingerprint: string): Promise<T>;
}

/** The same rates always (tools and tests that write without stored price data). */
export function fixedPrices(ratesOf: RatesOf): PriceSource<CostRates> {
  const rates: CostRates = { fingerprint: null, ratesOf };
  return { serving: () => rates, of: async () => rates };
}
