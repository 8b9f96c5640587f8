/**
 * @fileoverview Costs usage the way the interface says (docs/interface.md, docs/pricing.md): per (model, UTC day), with the price in
 * force that day, each source's counts read by its pricing mode, costed exactly and truncated to
 * micro-dollars once per (source, raw model, UTC day) — the grain of the `usage_daily` read model,
 * which stores each row's cost (computed by {@link rowCostMicros} at ingest and on repricing). So a
 * stored day and a day summed here from half-hours always cost the same, and the costs of any
 * split of an answer (by source, by model) add up to its total exactly. Also builds the `pricing`
 * object that tells the reader how the figure was produced.
 */

import { DAY_MS, type LocalDate } from '../domain/calendar.js';
import type { PricedCounts } from '../domain/token-counts.js';
import type { UsageRow } from '../domain/usage-row.js';
import { combinePricingModes, pricingModeForSource, type PricingMode, type PricingModeSummary } from './modes.js';
import type { DayPrice, PriceService } from './price-service.js';
import { costFemto, femtoToMicros, type TokenRates } from './rates.js';

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

/**
 * Cost in micro-dollars of one (source, raw model, UTC day)'s summed counts: the day's price, the
 * source's pricing mode, exact femto-dollars truncated once. What `usage_daily.cost_micros` holds.
 */
export function rowCostMicros(
  prices: PriceService,
  source: string,
  model: string,
  utcEpochDay: number,
  counts: Readonly<PricedCounts>,
): bigint {
  return costWithRates(source, prices.priceOn(model, utcEpochDay).rates, counts);
}

/** {@link rowCostMicros} with the day's rates already looked up (the ingest writer resolves them ahead of its transaction). */
export function costWithRates(source: string, rates: TokenRates, counts: Readonly<PricedCounts>): bigint {
  return femtoToMicros(costFemto(counts, pricingModeForSource(source), rates));
}

/** Usage already priced per (source, raw model, UTC day) and summed over a span of UTC days (a stored `usage_daily` aggregate). */
export interface PricedUsage {
  readonly source: string;
  readonly model: string;
  /** First and last UTC epoch day with usage in the span (they decide the prices reported in `pricing`). */
  readonly firstDay: number;
  readonly lastDay: number;
  /** Σ of the stored per-day costs. */
  readonly micros: bigint;
}

/** Accumulates rows and yields their cost and pricing summary. */
export interface CostAccumulator {
  /** Adds one row; its source decides the pricing mode, its `hourStart` the UTC day. */
  add(row: UsageRow): void;
  /** Adds many rows. */
  addAll(rows: Iterable<UsageRow>): void;
  /** Adds usage whose cost was already computed per (source, raw model, UTC day). */
  addPriced(usage: PricedUsage): void;
  /** Total cost in micro-dollars: Σ over (source, raw model, UTC day) of the truncated exact cost. */
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

/** Counts of one (source, raw model) per UTC epoch day. */
interface ModelDays {
  readonly source: string;
  readonly model: string;
  readonly days: Map<number, PricedCounts>;
}

interface Computed {
  readonly micros: bigint;
  readonly summary: PricingSummary;
}

/**
 * Creates an accumulator that prices rows through `prices` (cheap; use one per row of a breakdown).
 * Rows are first summed per (source, raw model, UTC day) with bigint additions only; prices are
 * looked up once per such sum when the total is asked for.
 */
export function createCostAccumulator(prices: PriceService, options: CostAccumulatorOptions = {}): CostAccumulator {
  const modeFor = options.modeForSource ?? pricingModeForSource;
  const byModel = new Map<string, ModelDays>();
  const priced: PricedUsage[] = [];
  let computed: Computed | null = null;

  const add = (row: UsageRow): void => {
    computed = null;
    const key = `${row.source}\u0000${row.model}`;
    let entry = byModel.get(key);
    if (entry === undefined) byModel.set(key, (entry = { source: row.source, model: row.model, days: new Map() }));
    const day = Math.floor(row.hourStart / DAY_MS);
    const c = entry.days.get(day);
    if (c === undefined) {
      entry.days.set(day, { input: row.input, cached: row.cached, output: row.output, reasoning: row.reasoning });
    } else {
      c.input += row.input;
      c.cached += row.cached;
      c.output += row.output;
      c.reasoning += row.reasoning;
    }
  };

  const compute = (): Computed => {
    if (computed !== null) return computed;
    const modes = new Set<PricingMode>();
    const unpriced = new Set<string>();
    const models = new Set<string>();
    let effectiveFrom: LocalDate | null = null;
    const note = (model: string, day: number): DayPrice => {
      const price = prices.priceOn(model, day);
      models.add(price.modelId);
      if (price.isDefault) unpriced.add(price.modelId);
      if (effectiveFrom === null || price.effectiveFrom > effectiveFrom) effectiveFrom = price.effectiveFrom;
      return price;
    };
    let micros = 0n;
    for (const g of byModel.values()) {
      const mode = modeFor(g.source);
      modes.add(mode);
      for (const [day, counts] of g.days) micros += femtoToMicros(costFemto(counts, mode, note(g.model, day).rates));
    }
    for (const p of priced) {
      modes.add(modeFor(p.source));
      note(p.model, p.firstDay);
      note(p.model, p.lastDay);
      micros += p.micros;
    }
    const ids = [...models];
    computed = {
      micros,
      summary: {
        model: ids.length === 1 ? (ids[0] as string) : null,
        pricing_mode:
          modes.size === 0 && options.sourceFilter !== undefined
            ? modeFor(options.sourceFilter)
            : combinePricingModes(modes),
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
    addPriced(usage) {
      computed = null;
      priced.push(usage);
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
