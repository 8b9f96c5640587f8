/**
 * @fileoverview Costs a set of rollup rows the way the contract says: per (model, UTC day), with
 * the price in force that day, each source's counts read by its pricing mode, summed exactly and
 * truncated to micro-dollars once per (canonical model, UTC day). Also builds the `pricing`
 * object that tells the reader how the figure was produced.
 */

import { DAY_MS, type LocalDate } from '../domain/calendar.js';
import type { UsageRow } from '../domain/usage-row.js';
import { combinePricingModes, pricingModeForSource, type PricingMode, type PricingModeSummary } from './modes.js';
import type { PriceService } from './price-service.js';
import { costFemto, femtoToMicros } from './rates.js';

/** The `pricing` object of summary, daily and model-breakdown responses (open object; extra fields documented in docs/pricing.md). */
export interface PricingSummary {
  /** Canonical id of the one model priced, else null. */
  model: string | null;
  pricing_mode: PricingModeSummary;
  /** Where prices came from (`genai-prices`, or the label of replaced data). */
  source: string;
  /** Newest start date among the price periods used (the data set's date when nothing was priced). */
  effective_from: LocalDate;
  /** Date the price data in use took effect (bundled package release or last sync). */
  data_effective_from: LocalDate;
  /** True when at least one model was priced with the default profile. */
  default_profile: boolean;
  /** Canonical id of the default profile's model. */
  default_model: string;
  /** Models the database could not price (priced with the default profile), sorted. */
  unpriced_models: string[];
}

/** Accumulates rows and yields their cost and pricing summary. */
export interface CostAccumulator {
  /** Adds one row; its source decides the pricing mode, its `hourStart` the UTC day. */
  add(row: UsageRow): void;
  /** Adds many rows. */
  addAll(rows: Iterable<UsageRow>): void;
  /** Total cost in micro-dollars: Σ over (model, UTC day) of the truncated exact cost. */
  totalMicros(): bigint;
  /** The `pricing` object for the rows added so far. */
  summary(): PricingSummary;
}

/** Options of {@link createCostAccumulator}. */
export interface CostAccumulatorOptions {
  /** Pricing mode per source (default {@link pricingModeForSource}). */
  readonly modeForSource?: (source: string) => PricingMode;
}

/** Creates an accumulator that prices rows through `prices` (cheap; use one per group of a breakdown). */
export function createCostAccumulator(prices: PriceService, options: CostAccumulatorOptions = {}): CostAccumulator {
  const modeFor = options.modeForSource ?? pricingModeForSource;
  const modeBySource = new Map<string, PricingMode>();
  const modes = new Set<PricingMode>();
  /** model_id → UTC epoch day → exact femto-dollars. */
  const femto = new Map<string, Map<number, bigint>>();
  const unpriced = new Set<string>();
  let effectiveFrom: LocalDate | null = null;

  const add = (row: UsageRow): void => {
    let mode = modeBySource.get(row.source);
    if (mode === undefined) {
      mode = modeFor(row.source);
      modeBySource.set(row.source, mode);
    }
    modes.add(mode);
    const day = Math.floor(row.hourStart / DAY_MS);
    const price = prices.priceOn(row.model, day);
    if (price.isDefault) unpriced.add(price.modelId);
    if (effectiveFrom === null || price.effectiveFrom > effectiveFrom) effectiveFrom = price.effectiveFrom;
    let perDay = femto.get(price.modelId);
    if (perDay === undefined) {
      perDay = new Map();
      femto.set(price.modelId, perDay);
    }
    perDay.set(day, (perDay.get(day) ?? 0n) + costFemto(row, mode, price.rates));
  };

  return {
    add,
    addAll(rows) {
      for (const row of rows) add(row);
    },
    totalMicros() {
      let micros = 0n;
      for (const perDay of femto.values()) for (const f of perDay.values()) micros += femtoToMicros(f);
      return micros;
    },
    summary() {
      const models = [...femto.keys()];
      return {
        model: models.length === 1 ? (models[0] as string) : null,
        pricing_mode: combinePricingModes(modes),
        source: prices.source,
        effective_from: effectiveFrom ?? prices.dataEffectiveFrom,
        data_effective_from: prices.dataEffectiveFrom,
        default_profile: unpriced.size > 0,
        default_model: prices.defaultIdentity.model_id,
        unpriced_models: [...unpriced].sort(),
      };
    },
  };
}
