/**
 * @fileoverview Folds an OpenRouter `/models` answer into genai-prices data, for syncPricing
 * when `PRICING_SOURCE_URL` points at OpenRouter.
 *
 * OpenRouter prices carry no history, so they are added as *dated* entries. A model whose
 * OpenRouter price differs from the price in force on `effectiveFrom` gets a new
 * `start_date: effectiveFrom` entry. Earlier days keep their old prices, and the genai-prices
 * matcher and display names stay as they are. An OpenRouter id `vendor/model` is matched only
 * inside the genai-prices provider of the same vendor, by the library's matcher. Variants
 * (`:free`, …), unknown vendors, unmatched or ambiguous ids, and entries without usable token
 * prices are skipped and listed. Pure: the caller passes the current data (e.g.
 * `await waitForUpdate()`) and then hands the result to `PriceService.replaceData`.
 */

import {
  calcPrice,
  type ConditionalPrice,
  type ModelInfo,
  type ModelPrice,
  type Provider,
} from '@pydantic/genai-prices';
import { DAY_MS, epochDayOf, isValidLocalDate, type LocalDate } from '../domain/calendar.js';

/** OpenRouter vendor slugs whose genai-prices provider id differs (naming only, no prices). */
const VENDOR_ALIASES: Readonly<Record<string, string>> = Object.freeze({ mistralai: 'mistral', 'z-ai': 'zai' });

/** Token price keys an OpenRouter entry can set, with the OpenRouter field each comes from. */
const PRICE_FIELDS: readonly (readonly [keyof ModelPrice & string, string])[] = [
  ['input_mtok', 'prompt'],
  ['output_mtok', 'completion'],
  ['cache_read_mtok', 'input_cache_read'],
  ['cache_write_mtok', 'input_cache_write'],
];

/** Why an OpenRouter entry was not used. */
export type OpenRouterSkipReason =
  'variant' | 'unknown_vendor' | 'unmatched' | 'ambiguous' | 'no_token_prices' | 'malformed';

/** Outcome of {@link mergeOpenRouterPrices}. */
export interface OpenRouterMerge {
  /** The new data set: a deep copy of the current data with dated entries added. */
  readonly providers: Provider[];
  /** OpenRouter entries read. */
  readonly seen: number;
  /** genai-prices models that got a new dated price, as `provider/model`, sorted. */
  readonly updated: string[];
  /** genai-prices models whose price already matched, as `provider/model`, sorted. */
  readonly unchanged: string[];
  /** OpenRouter ids not used, with the reason. */
  readonly skipped: { readonly id: string; readonly reason: OpenRouterSkipReason }[];
}

/** True when `json` looks like an OpenRouter `/models` answer (`{data: [...]}`) rather than genai-prices data (an array). */
export function isOpenRouterModels(json: unknown): json is { data: unknown[] } {
  return (
    typeof json === 'object' &&
    json !== null &&
    !Array.isArray(json) &&
    Array.isArray((json as { data?: unknown }).data)
  );
}

/** USD per token as OpenRouter writes it (`"0.00000125"`) → USD per million tokens (`1.25`), shifting decimal digits so no float error creeps in; null when not a non-negative decimal. */
export function perTokenToPerMtok(value: unknown): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).trim();
  if (/^\d+(?:\.\d+)?e-?\d+$/i.test(text)) return Number((Number(text) * 1e6).toPrecision(12)); // exponent form
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const whole = match[1] as string;
  const frac = (match[2] ?? '').padEnd(6, '0');
  const shifted = `${whole}${frac.slice(0, 6)}.${frac.slice(6) || '0'}`;
  return Number(shifted);
}

function baseOf(v: ModelPrice[string]): number | undefined {
  return v === undefined ? undefined : typeof v === 'number' ? v : v.base;
}

interface Candidate {
  readonly id: string;
  readonly bare: string;
  readonly providerId: string;
  readonly modelId: string;
  readonly prices: Partial<Record<string, number>>;
}

/**
 * Adds OpenRouter prices to `current` as entries starting on `effectiveFrom` (see the module
 * comment). Never mutates `current`; throws only when `effectiveFrom` is not a valid date.
 */
export function mergeOpenRouterPrices(
  current: readonly Provider[],
  openRouter: { data: unknown[] },
  effectiveFrom: LocalDate,
): OpenRouterMerge {
  if (!isValidLocalDate(effectiveFrom)) throw new RangeError(`effectiveFrom must be YYYY-MM-DD (got ${effectiveFrom})`);
  const providers = JSON.parse(JSON.stringify(current)) as Provider[];
  const at = new Date(epochDayOf(effectiveFrom) * DAY_MS + 12 * 3_600_000);
  const skipped: { id: string; reason: OpenRouterSkipReason }[] = [];
  const byModel = new Map<string, Candidate[]>();

  for (const entry of openRouter.data) {
    const e = entry as { id?: unknown; pricing?: Record<string, unknown> } | null;
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof e.id !== 'string' ||
      typeof e.pricing !== 'object' ||
      e.pricing === null
    ) {
      skipped.push({ id: typeof e?.id === 'string' ? e.id : '?', reason: 'malformed' });
      continue;
    }
    const id = e.id.trim().toLowerCase();
    if (id.includes(':')) {
      skipped.push({ id, reason: 'variant' });
      continue;
    }
    const slash = id.indexOf('/');
    const vendor = slash > 0 ? id.slice(0, slash) : '';
    const bare = id.slice(slash + 1);
    const provider = providers.find((p) => p.id === (VENDOR_ALIASES[vendor] ?? vendor));
    if (provider === undefined || bare === '') {
      skipped.push({ id, reason: 'unknown_vendor' });
      continue;
    }
    const prices: Partial<Record<string, number>> = {};
    for (const [key, field] of PRICE_FIELDS) {
      const v = perTokenToPerMtok(e.pricing[field]);
      if (v !== null) prices[key] = v;
    }
    if (prices['input_mtok'] === undefined || prices['output_mtok'] === undefined) {
      skipped.push({ id, reason: 'no_token_prices' });
      continue;
    }
    let hit: ReturnType<typeof calcPrice> = null;
    try {
      hit = calcPrice({}, bare, { provider, timestamp: at });
    } catch {
      hit = null;
    }
    if (hit === null) {
      skipped.push({ id, reason: 'unmatched' });
      continue;
    }
    const key = `${provider.id}/${hit.model.id}`;
    byModel.set(key, [
      ...(byModel.get(key) ?? []),
      { id, bare, providerId: provider.id, modelId: hit.model.id, prices },
    ]);
  }

  const updated: string[] = [];
  const unchanged: string[] = [];
  for (const [key, candidates] of byModel) {
    const exact = candidates.filter((c) => c.bare === c.modelId);
    const chosen = exact.length === 1 ? exact[0] : candidates.length === 1 ? candidates[0] : undefined;
    if (chosen === undefined) {
      for (const c of candidates) skipped.push({ id: c.id, reason: 'ambiguous' });
      continue;
    }
    for (const c of candidates) if (c !== chosen) skipped.push({ id: c.id, reason: 'ambiguous' });
    const model = providers.find((p) => p.id === chosen.providerId)?.models.find((m) => m.id === chosen.modelId);
    if (model === undefined) continue;
    const inForce =
      calcPrice({}, chosen.bare, {
        provider: providers.find((p) => p.id === chosen.providerId) as Provider,
        timestamp: at,
      })?.model_price ?? {};
    const same = PRICE_FIELDS.every(([k]) => chosen.prices[k] === undefined || baseOf(inForce[k]) === chosen.prices[k]);
    if (same) {
      unchanged.push(key);
      continue;
    }
    addDatedPrice(model, { ...inForce, ...chosen.prices }, effectiveFrom);
    updated.push(key);
  }
  return { providers, seen: openRouter.data.length, updated: updated.sort(), unchanged: unchanged.sort(), skipped };
}

/** Inserts (or replaces) the entry starting on `day`, keeping start-date entries in date order so the library picks the latest one in force. */
function addDatedPrice(model: ModelInfo, prices: ModelPrice, day: LocalDate): void {
  const entries: ConditionalPrice[] = Array.isArray(model.prices) ? [...model.prices] : [{ prices: model.prices }];
  const entry: ConditionalPrice = { constraint: { type: 'start_date', start_date: day }, prices };
  const startOf = (c: ConditionalPrice): string | null =>
    c.constraint?.type === 'start_date' ? c.constraint.start_date : null;
  const same = entries.findIndex((c) => startOf(c) === day);
  if (same >= 0) {
    entries[same] = entry;
  } else {
    const later = entries.findIndex((c) => {
      const s = startOf(c);
      return s !== null && s > day;
    });
    entries.splice(later >= 0 ? later : entries.length, 0, entry);
  }
  model.prices = entries;
}
