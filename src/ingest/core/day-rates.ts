/**
 * @fileoverview The prices an upload needs, looked up before it is written. A `usage_daily` row is
 * priced with its model's rates on its UTC day; the SQLite writer resolves those rates for every
 * (model, day) of a group's uploads ahead of the group's transaction, so an upload whose prices
 * cannot be resolved fails alone before anything is written (the read models of a group are
 * written for all its uploads together, where one failure would fail them all).
 *
 * Rows are priced with the data the stored costs are priced by when the upload commits
 * (docs/pricing.md, "Stored costs"): both writers resolve with the data this process last knew
 * ({@link PriceSource.serving}) and, when the transaction finds other data recorded, resolve again
 * with that ({@link PriceSource.of}) — the PostgreSQL writer inside its transaction, the SQLite one
 * by rolling back and writing the group again.
 */
import type { Bucket } from '../../domain/bucket.js';
import { DAY_MS } from '../../domain/calendar.js';
import { costWithRates } from '../../pricing/cost.js';
import type { TokenRates } from '../../pricing/rates.js';
import type { RatesOf } from '../../pricing/price-source.js';
import type { PricedCounts } from '../../domain/token-counts.js';

export { fixedPrices, type CostRates, type RatesOf, type PriceSource } from '../../pricing/price-source.js';

/**
 * A group's rates: by model, then UTC epoch day (no key string built per bucket: this runs for
 * every bucket). What the writers hand the group write; its rows are priced over it ({@link costerOf}).
 */
export type RateTable = Map<string, Map<number, TokenRates>>;

/** Adds the rates of every (model, UTC day) of `buckets` to `into`; throws what `ratesOf` throws. */
export function resolveRates(buckets: readonly Bucket[], ratesOf: RatesOf, into: RateTable): void {
  for (const b of buckets) {
    const day = Math.floor(b.hourStart / DAY_MS);
    let byDay = into.get(b.model);
    if (byDay === undefined) into.set(b.model, (byDay = new Map()));
    if (!byDay.has(day)) byDay.set(day, ratesOf(b.model, day));
  }
}

/** The cost in micro-dollars of one `usage_daily` row's counts (source, raw model, UTC epoch day). */
export type RowCoster = (source: string, model: string, utcEpochDay: number, counts: Readonly<PricedCounts>) => bigint;

/** A row coster over resolved rates; a (model, day) missing from the table is a bug and throws. */
export function costerOf(table: RateTable): RowCoster {
  return (source, model, day, counts) => {
    const rates = table.get(model)?.get(day);
    if (rates === undefined) throw new Error(`no rates resolved for ${model} on day ${day}`);
    return costWithRates(source, rates, counts);
  };
}
