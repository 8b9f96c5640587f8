/**
 * @fileoverview Costs a set of rollup rows the way the contract says: per (model, UTC day), with
 * the price in force that day, each source's counts read by its pricing mode (counts are summed per
 * (model, UTC day, mode) first, so inconsistent rows are clamped on the day's sums), costed
 * exactly and truncated to micro-dollars once per (canonical model, UTC day). Also builds the `pricing`
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
  /** The request's `source` filter, if any: an answer without rows then reports that source's mode instead of `add`. */
  readonly sourceFilter?: string | undefined;
}

/** Counts of one (raw model, UTC day) summed per pricing mode: [overlap, add]. */
interface DayCounts {
  readonly byMode: [MutableCounts | null, MutableCounts | null];
}

interface MutableCounts {
  input: bigint;
  cachedInput: bigint;
  output: bigint;
  reasoning: bigint;
}

interface Computed {
  readonly micros: bigint;
  readonly summary: PricingSummary;
}

/**
 * Creates an accumulator that prices rows through `prices` (cheap; use one per group of a breakdown).
 * Rows are first summed per (raw model, UTC day, mode) with bigint additions only; prices are
 * looked up once per such group when the total is asked for, then costs are summed exactly per
 * (canonical model, UTC day) and truncated to micro-dollars.
 */
export function createCostAccumulator(prices: PriceService, options: CostAccumulatorOptions = {}): CostAccumulator {
  const modeFor = options.modeForSource ?? pricingModeForSource;
  const modeBySource = new Map<string, PricingMode>();
  const groups = new Map<string, Map<number, DayCounts>>();
  let computed: Computed | null = null;

  const add = (row: UsageRow): void => {
    computed = null;
    let mode = modeBySource.get(row.source);
    if (mode === undefined) {
      mode = modeFor(row.source);
      modeBySource.set(row.source, mode);
    }
    const day = Math.floor(row.hourStart / DAY_MS);
    let perDay = groups.get(row.model);
    if (perDay === undefined) {
      perDay = new Map();
      groups.set(row.model, perDay);
    }
    let dayCounts = perDay.get(day);
    if (dayCounts === undefined) {
      dayCounts = { byMode: [null, null] };
      perDay.set(day, dayCounts);
    }
    const slot = mode === 'overlap' ? 0 : 1;
    const c = dayCounts.byMode[slot];
    if (c === null) {
      dayCounts.byMode[slot] = { input: row.input, cachedInput: row.cachedInput, output: row.output, reasoning: row.reasoning };
    } else {
      c.input += row.input;
      c.cachedInput += row.cachedInput;
      c.output += row.output;
      c.reasoning += row.reasoning;
    }
  };

  const compute = (): Computed => {
    if (computed !== null) return computed;
    const modes = new Set<PricingMode>();
    const unpriced = new Set<string>();
    /** model_id → UTC epoch day → exact femto-dollars (aliases of one model share a group). */
    const femto = new Map<string, Map<number, bigint>>();
    let effectiveFrom: LocalDate | null = null;
    for (const [rawModel, perDay] of groups) {
      for (const [day, dayCounts] of perDay) {
        const price = prices.priceOn(rawModel, day);
        if (price.isDefault) unpriced.add(price.modelId);
        if (effectiveFrom === null || price.effectiveFrom > effectiveFrom) effectiveFrom = price.effectiveFrom;
        let cost = 0n;
        const [overlap, additive] = dayCounts.byMode;
        if (overlap !== null) {
          modes.add('overlap');
          cost += costFemto(overlap, 'overlap', price.rates);
        }
        if (additive !== null) {
          modes.add('add');
          cost += costFemto(additive, 'add', price.rates);
        }
        let byDay = femto.get(price.modelId);
        if (byDay === undefined) {
          byDay = new Map();
          femto.set(price.modelId, byDay);
        }
        byDay.set(day, (byDay.get(day) ?? 0n) + cost);
      }
    }
    let micros = 0n;
    for (const byDay of femto.values()) for (const f of byDay.values()) micros += femtoToMicros(f);
    const models = [...femto.keys()];
    computed = {
      micros,
      summary: {
        model: models.length === 1 ? (models[0] as string) : null,
        pricing_mode: modes.size === 0 && options.sourceFilter !== undefined ? modeFor(options.sourceFilter) : combinePricingModes(modes),
        source: prices.source,
        effective_from: effectiveFrom ?? prices.dataEffectiveFrom,
        data_effective_from: prices.dataEffectiveFrom,
        default_profile: unpriced.size > 0,
        default_model: prices.defaultIdentity.model_id,
        unpriced_models: [...unpriced].sort(),
      },
    };
    return computed;
  };

  return {
    add,
    addAll(rows) {
      for (const row of rows) add(row);
    },
    totalMicros() {
      return compute().micros;
    },
    summary() {
      const s = compute().summary;
      return { ...s, unpriced_models: [...s.unpriced_models] };
    },
  };
}
