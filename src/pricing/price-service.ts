/**
 * @fileoverview Prices and model identities from `@pydantic/genai-prices`, cached per model and
 * per (model, UTC day).
 *
 * - Identity: a raw model name's canonical `model_id` is the database entry the library's matcher
 *   finds when that entry is a spelling of the same model (`claude-sonnet-4-5-20250929` →
 *   `claude-sonnet-4-5`); otherwise the name keeps its own id and is priced as that entry
 *   (`gpt-5.2-codex`, priced as `gpt-5.2`). See model-names.ts.
 * - Price: the database entry in force on the UTC day (evaluated at 12:00 UTC of that day), base
 *   tier, turned into integer {@link TokenRates}; its `effectiveFrom` is the entry's start date
 *   (or {@link PRICE_HISTORY_START} when the database records none). A model the database cannot price uses the
 *   default profile: the database's price for {@link DEFAULT_PRICING_MODEL}, flagged as such.
 * - Data: the bundled data works offline; {@link PriceService.replaceData} swaps in newer data at
 *   run time (validated first; the old data stays when the new data is unusable).
 *
 * A service either follows the process's current data (bundled until replaced; every such service
 * notices a replacement and drops its caches) or is pinned to one {@link PriceData} set
 * (price-data.ts), e.g. the data the stored costs were priced by.
 */

import { calcPrice, type ModelInfo, type ModelPrice, type PriceOptions } from '@pydantic/genai-prices';
import { DAY_MS, epochDayOf, formatEpochDay, isValidLocalDate, type LocalDate } from '../domain/calendar.js';
import { ownModelId, sameModel } from './model-names.js';
import {
  bundledPriceData,
  checkedPriceData,
  PriceDataError,
  priceDataReady,
  PRICING_SOURCE,
  validateProviders,
  withPriceData,
  type PriceData,
} from './price-data.js';
import { ratesFromModelPrice, type TokenRates } from './rates.js';

export {
  BUNDLED_PRICES_EFFECTIVE_FROM,
  BUNDLED_PRICES_VERSION,
  PriceDataError,
  PRICING_SOURCE,
  priceDataReady,
  type PriceData,
} from './price-data.js';

/** Raw model priced when the database does not know a model (the original service's default profile). */
export const DEFAULT_PRICING_MODEL = 'gpt-5.2-codex';

/** Start assumed for a price period the database gives no start date for: the first day the service accepts usage for. */
export const PRICE_HISTORY_START: LocalDate = '2020-01-01';

/** Hour of the UTC day at which "the price in force that day" is evaluated (keeps time-of-day discounts out). */
const EVALUATION_HOUR_MS = 12 * 3_600_000;

/** A raw model name's identity in the price database. */
export interface ModelIdentity {
  /** Canonical id from the database (the trimmed, lower-cased raw name when unknown). */
  readonly model_id: string;
  /** Display name from the database (the raw name when unknown). */
  readonly model: string;
  /** True when the database matched the name. */
  readonly known: boolean;
  /** Provider id of the match (e.g. `openai`), null when unknown. */
  readonly provider: string | null;
  /** Id of the database entry that prices the model when it is another model's (its nearest match), else null. */
  readonly priced_as: string | null;
}

/** The price used for one raw model on one UTC day. */
export interface DayPrice {
  /** Canonical id of the model being priced (raw name when unknown). */
  readonly modelId: string;
  readonly rates: TokenRates;
  /** True when the default profile priced it because the database could not. */
  readonly isDefault: boolean;
  /** Canonical id of the price entry actually used (the default model's id when `isDefault`). */
  readonly pricedAs: string;
  /** Provider of the price entry used. */
  readonly provider: string;
  /** First day of the price period in force: its start date in the database, else {@link PRICE_HISTORY_START}. */
  readonly effectiveFrom: LocalDate;
}

/** Outcome of a successful {@link PriceService.replaceData}. */
export interface ReplaceDataResult {
  readonly providers: number;
  readonly models: number;
  readonly effectiveFrom: LocalDate;
  readonly source: string;
}

/** Options of {@link createPriceService}. */
export interface PriceServiceOptions {
  /** Raw model name that prices unknown models (default {@link DEFAULT_PRICING_MODEL}). */
  readonly defaultModel?: string;
  /** The data set this service prices with, always; without it, the process's current data (replaceable). */
  readonly data?: PriceData;
  /** Largest number of distinct raw model names kept in the caches before they are emptied (default 10,000). */
  readonly maxCachedModels?: number;
}

/** Model identities and per-day prices over the (replaceable) price database. */
export interface PriceService {
  /** The database identity of a raw model name; cached per name. */
  identify(rawModel: string): ModelIdentity;
  /** True when a row's raw model matches a `model` filter given as either a raw name or a canonical `model_id`. */
  matchesModelFilter(rawModel: string, filter: string): boolean;
  /** The price of a raw model on a UTC day given as an epoch day number; cached per model and price period, so the library is asked once per period. */
  priceOn(rawModel: string, utcEpochDay: number): DayPrice;
  /** {@link PriceService.priceOn} for a `YYYY-MM-DD` UTC date. */
  priceOnDate(rawModel: string, utcDate: LocalDate): DayPrice;
  /** Identity of the default profile's model. */
  readonly defaultIdentity: ModelIdentity;
  /** `source` label of the data in use (`genai-prices` unless replaced with another label). */
  readonly source: string;
  /** Date the data in use took effect (bundled: the package's release date; replaced: the date given). */
  readonly dataEffectiveFrom: LocalDate;
  /**
   * Identifies the price data in force, the same in every process that uses the same data: the
   * bundled package version, or the label, date and a digest of replaced data. Stored costs
   * record it, so a change of data is noticed and they are repriced.
   */
  readonly fingerprint: string;
  /** The data set in use (for a service that follows the process's data: the current one). */
  readonly data: PriceData;
  /**
   * Replaces the price data for the whole process with `data` (a `Provider[]` as published at the
   * library's REMOTE_DATA_JSON_URL, as JSON text or parsed). Validates it, checks the default model
   * can still be priced, and clears caches; throws {@link PriceDataError} and keeps the old data otherwise.
   * A service pinned to a data set keeps pricing with it.
   */
  replaceData(
    data: unknown,
    info: { readonly effectiveFrom: LocalDate; readonly source?: string },
  ): Promise<ReplaceDataResult>;
}

interface Resolution {
  readonly identity: ModelIdentity;
  /** How to ask the library for this model again (name + options), null when unknown. */
  readonly query: { readonly name: string; readonly options: PriceOptions } | null;
  readonly info: ModelInfo | null;
}

/** Process-wide counter bumped on every data replacement, so every service instance drops stale caches. */
let dataGeneration = 0;
/** The process's current data: what services without a data set of their own price with. */
let currentData: PriceData = bundledPriceData();

function safeCalc(data: PriceData, name: string, options: PriceOptions): ReturnType<typeof calcPrice> {
  try {
    return withPriceData(data, () => calcPrice({}, name, options));
  } catch {
    return null; // malformed price entry: treat as unknown rather than fail a read
  }
}

function resolveName(data: PriceData, raw: string, at: Date): Resolution {
  const name = raw.trim().toLowerCase();
  const own = ownModelId(name);
  const unknown: Resolution = {
    identity: { model_id: own, model: own, known: false, provider: null, priced_as: null },
    query: null,
    info: null,
  };
  if (name === '' || name === 'unknown') return unknown;
  const attempts: { name: string; options: PriceOptions }[] = [{ name, options: {} }];
  const slash = name.lastIndexOf('/');
  if (slash >= 0) {
    // "provider/model" as LiteLLM and OpenRouter write it; then the bare last segment.
    attempts.push({ name, options: { providerId: 'litellm' } });
    const bare = name.slice(slash + 1);
    if (bare !== '') attempts.push({ name: bare, options: {} });
  }
  for (const attempt of attempts) {
    const hit = safeCalc(data, attempt.name, { ...attempt.options, timestamp: at });
    if (hit) {
      // The entry that prices a name is its identity only when it is a spelling of the same model.
      const identity = sameModel(name, hit.model.id)
        ? {
            model_id: hit.model.id,
            model: hit.model.name ?? hit.model.id,
            known: true,
            provider: hit.provider.id,
            priced_as: null,
          }
        : { model_id: own, model: own, known: true, provider: hit.provider.id, priced_as: hit.model.id };
      return { identity, query: attempt, info: hit.model };
    }
  }
  return unknown;
}

function effectiveFromOf(info: ModelInfo, price: ModelPrice): LocalDate | null {
  if (!Array.isArray(info.prices)) return null;
  const entry = info.prices.find((p) => p.prices === price);
  const constraint = entry?.constraint;
  return constraint !== undefined && constraint.type === 'start_date' && isValidLocalDate(constraint.start_date)
    ? constraint.start_date
    : null;
}

/** Start dates (as epoch days, ascending) at which a database entry's price changes. */
function breakpointsOf(info: ModelInfo | null): number[] {
  if (info === null || !Array.isArray(info.prices)) return [];
  const days: number[] = [];
  for (const p of info.prices) {
    const c = p.constraint;
    if (c !== undefined && c.type === 'start_date' && isValidLocalDate(c.start_date))
      days.push(epochDayOf(c.start_date));
  }
  return [...new Set(days)].sort((a, b) => a - b);
}

interface ModelEntry {
  readonly resolution: Resolution;
  /** Days on which this model's own price or the default profile's price may change. */
  readonly breakpoints: readonly number[];
  /** Price per period (number of breakpoints on or before the day). */
  readonly byPeriod: Map<number, DayPrice>;
}

const IDENTIFY_AT = new Date(Date.UTC(2020, 0, 1, 12));

/** Why `data` cannot serve as price data (the default profile must be priceable from its date on), or null. */
function defaultModelProblem(data: PriceData, defaultModel: string): string | null {
  const check = resolveName(data, defaultModel, IDENTIFY_AT);
  const at = new Date(epochDayOf(data.effectiveFrom) * DAY_MS + EVALUATION_HOUR_MS);
  const probe = check.query ? safeCalc(data, check.query.name, { ...check.query.options, timestamp: at }) : null;
  if (probe === null || ratesFromModelPrice(probe.model_price) === null) {
    return `the new price data cannot price the default model ${defaultModel}; keeping the previous data`;
  }
  return null;
}

/**
 * A price data set from providers (JSON text or parsed), validated like {@link PriceService.replaceData}
 * validates; `fingerprint` when it is known already (data kept in the database under it).
 * Throws {@link PriceDataError}. Needs {@link priceDataReady} to have resolved.
 */
export function createPriceData(
  data: unknown,
  info: { readonly effectiveFrom: LocalDate; readonly source?: string; readonly fingerprint?: string },
  defaultModel: string = DEFAULT_PRICING_MODEL,
): PriceData {
  if (!isValidLocalDate(info.effectiveFrom))
    throw new PriceDataError(`effectiveFrom must be YYYY-MM-DD (got ${info.effectiveFrom})`);
  const providers = validateProviders(data);
  const source = info.source ?? PRICING_SOURCE;
  return checkedPriceData(providers, { ...info, source }, (candidate) => defaultModelProblem(candidate, defaultModel));
}

/** Creates a price service over one data set, or over the process's current data (bundled until replaced). */
export function createPriceService(options: PriceServiceOptions = {}): PriceService {
  const defaultModel = options.defaultModel ?? DEFAULT_PRICING_MODEL;
  const maxModels = options.maxCachedModels ?? 10_000;
  const pinned = options.data;
  let generation = -1;
  let data: PriceData = pinned ?? currentData;
  let resolutions = new Map<string, Resolution>();
  let entries = new Map<string, ModelEntry>();
  let defaultResolution: Resolution;
  let defaultBreakpoints: number[] = [];

  const resolve = (raw: string): Resolution => {
    let r = resolutions.get(raw);
    if (r === undefined) {
      if (resolutions.size >= maxModels) resolutions = new Map();
      r = resolveName(data, raw, IDENTIFY_AT);
      resolutions.set(raw, r);
    }
    return r;
  };

  const sync = (): void => {
    if (generation === dataGeneration || (pinned !== undefined && generation !== -1)) return;
    generation = dataGeneration;
    data = pinned ?? currentData;
    resolutions = new Map();
    entries = new Map();
    defaultResolution = resolve(defaultModel);
    defaultBreakpoints = breakpointsOf(defaultResolution.info);
  };

  /** Price of a resolved (known) model on a day, or null when the database cannot price it. */
  const databasePrice = (r: Resolution, epochDay: number): Omit<DayPrice, 'modelId' | 'isDefault'> | null => {
    if (r.query === null || r.info === null) return null;
    const at = new Date(epochDay * DAY_MS + EVALUATION_HOUR_MS);
    const hit = safeCalc(data, r.query.name, { ...r.query.options, timestamp: at });
    if (hit === null) return null;
    const rates = ratesFromModelPrice(hit.model_price);
    if (rates === null) return null;
    return {
      rates,
      pricedAs: hit.model.id,
      provider: hit.provider.id,
      effectiveFrom: effectiveFromOf(hit.model, hit.model_price) ?? PRICE_HISTORY_START,
    };
  };

  const entryFor = (raw: string): ModelEntry => {
    let entry = entries.get(raw);
    if (entry === undefined) {
      const resolution = resolve(raw);
      const breakpoints = [...new Set([...breakpointsOf(resolution.info), ...defaultBreakpoints])].sort(
        (a, b) => a - b,
      );
      entry = { resolution, breakpoints, byPeriod: new Map() };
      if (entries.size >= maxModels) entries = new Map();
      entries.set(raw, entry);
    }
    return entry;
  };

  const priceOn = (rawModel: string, utcEpochDay: number): DayPrice => {
    sync();
    const entry = entryFor(rawModel);
    // Prices only change on start dates (time-of-day rules are evaluated at noon), so one library call per period.
    let period = 0;
    while (period < entry.breakpoints.length && (entry.breakpoints[period] as number) <= utcEpochDay) period++;
    const cached = entry.byPeriod.get(period);
    if (cached !== undefined) return cached;
    const r = entry.resolution;
    let price: DayPrice;
    const own = databasePrice(r, utcEpochDay);
    if (own !== null) {
      price = { modelId: r.identity.model_id, isDefault: false, ...own };
    } else {
      const fallback = databasePrice(defaultResolution, utcEpochDay);
      if (fallback === null)
        throw new PriceDataError(
          `the default pricing model ${defaultModel} has no price on ${formatEpochDay(utcEpochDay)}`,
        );
      price = { modelId: r.identity.model_id, isDefault: true, ...fallback };
    }
    entry.byPeriod.set(period, price);
    return price;
  };

  sync();

  return {
    identify(rawModel) {
      sync();
      return resolve(rawModel).identity;
    },
    matchesModelFilter(rawModel, filter) {
      sync();
      const f = filter.trim().toLowerCase();
      const raw = rawModel.trim().toLowerCase();
      if (raw === f) return true;
      const id = resolve(rawModel).identity.model_id;
      return id === f || id === resolve(f).identity.model_id;
    },
    priceOn,
    priceOnDate(rawModel, utcDate) {
      return priceOn(rawModel, epochDayOf(utcDate));
    },
    get defaultIdentity() {
      sync();
      return defaultResolution.identity;
    },
    get source() {
      sync();
      return data.source;
    },
    get dataEffectiveFrom() {
      sync();
      return data.effectiveFrom;
    },
    get fingerprint() {
      sync();
      return data.fingerprint;
    },
    get data() {
      sync();
      return data;
    },
    async replaceData(json, info) {
      await priceDataReady();
      const next = createPriceData(json, info, defaultModel);
      currentData = next;
      dataGeneration++;
      sync();
      return {
        providers: next.providers.length,
        models: next.providers.reduce((n, p) => n + p.models.length, 0),
        effectiveFrom: next.effectiveFrom,
        source: next.source,
      };
    },
  };
}
