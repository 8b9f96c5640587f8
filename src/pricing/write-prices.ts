/**
 * @fileoverview Where the ingest writers get their prices (ingest/core/day-rates.ts resolves them per
 * upload): the rates of one price data set, named by its fingerprint, and the source that answers
 * the data this process last saw or the data of a given fingerprint. Defined here, below both the
 * writers (ingest/) and the service that serves them (services/price-book.ts).
 */
import type { TokenRates } from './rates.js';

/** The rates of a raw model on a UTC epoch day (the price service's `priceOn(...).rates`). */
export type RatesOf = (model: string, utcEpochDay: number) => TokenRates;

/** The rates of one price data set, named by its fingerprint (null: fixed rates, no data set to check). */
export interface CostRates {
  readonly fingerprint: string | null;
  readonly ratesOf: RatesOf;
}

/** Where a writer gets its prices. */
export interface WritePrices {
  /** The data the stored costs were priced by, as this process last saw it (no I/O). */
  serving(): CostRates;
  /** The data with this fingerprint (recorded in the database when the transaction looked). */
  of(fingerprint: string): Promise<CostRates>;
}

/** The same rates always (tools and tests that write without stored price data). */
export function fixedPrices(ratesOf: RatesOf): WritePrices {
  const rates: CostRates = { fingerprint: null, ratesOf };
  return { serving: () => rates, of: async () => rates };
}
