/**
 * @fileoverview syncPricing: fetches price data from PRICING_SOURCE_URL (genai-prices data, an
 * array of providers, or an OpenRouter `/models` answer), validates it, switches the price service
 * to it and keeps it (see pricing-store.ts), then has the stored costs repriced with it. Any
 * failure — unreachable source, timeout, HTTP error, invalid data — leaves the current prices in
 * place and is reported, never thrown.
 */
import type { Provider } from '@pydantic/genai-prices';
import type { Clock } from '../clock.js';
import { DAY_MS, formatEpochDay } from '../domain/calendar.js';
import {
  isOpenRouterModels,
  mergeOpenRouterPrices,
  PriceDataError,
  withPriceData,
  type PriceService,
} from '../pricing/index.js';
import type { RepriceResult } from '../services/repricing.js';
import type { PricingStore } from './pricing-store.js';

export const PRICING_FETCH_TIMEOUT_MS = 10_000;
const MAX_BYTES = 50 * 1024 * 1024;

export interface PricingSyncDeps {
  prices: PriceService;
  store: PricingStore;
  clock: Clock;
  sourceUrl: string;
  timeoutMs?: number;
  /**
   * Reprices the stored costs after a switch (the server passes its {@link CostRepricer}); answers
   * use the previous prices until it ends. Undefined when another process runs the repricing.
   */
  reprice?: () => Promise<RepriceResult | undefined>;
}

export interface PricingSyncResult {
  success: boolean;
  /** True when the price service now uses the fetched data. */
  updated: boolean;
  source_url: string;
  format: 'genai-prices' | 'openrouter' | null;
  /** Label and start date of the data in use after this run. */
  source: string;
  effective_from: string;
  models_seen: number;
  models_updated: number;
  models_unchanged: number;
  models_skipped: number;
  skipped: { id: string; reason: string }[];
  persisted: boolean;
  /** Stored daily costs changed by the repricing that follows a switch (absent when another process runs it). */
  costs_repriced?: number;
  reason?: string;
}

class SyncError extends Error {}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new SyncError(`the price source did not answer within ${timeoutMs / 1000} s`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new SyncError(
      `the price source is unreachable (${cause?.code ?? cause?.message ?? (error as Error).message})`,
    );
  }
  if (!response.ok) throw new SyncError(`the price source answered HTTP ${response.status}`);
  const text = await response.text();
  if (text.length > MAX_BYTES) throw new SyncError('the price data is larger than 50 MB');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SyncError('the price source did not return JSON');
  }
}

function modelKeys(providers: readonly Provider[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const p of providers) for (const m of p.models) map.set(`${p.id}/${m.id}`, JSON.stringify(m));
  return map;
}

export async function syncPricing(deps: PricingSyncDeps): Promise<PricingSyncResult> {
  const now = deps.clock.now();
  const today = formatEpochDay(Math.floor(now / DAY_MS));
  const base = { source_url: deps.sourceUrl, skipped: [] as { id: string; reason: string }[] };
  const failed = (reason: string, format: PricingSyncResult['format'] = null): PricingSyncResult => ({
    success: false,
    updated: false,
    ...base,
    format,
    source: deps.prices.source,
    effective_from: deps.prices.dataEffectiveFrom,
    models_seen: 0,
    models_updated: 0,
    models_unchanged: 0,
    models_skipped: 0,
    persisted: false,
    reason: `${reason}; the current prices stay in use`,
  });

  let json: unknown;
  try {
    json = await fetchJson(deps.sourceUrl, deps.timeoutMs ?? PRICING_FETCH_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof SyncError) return failed(error.message);
    throw error;
  }

  const current = deps.prices.data.providers;
  let format: 'genai-prices' | 'openrouter';
  let data: unknown;
  let counts: { seen: number; updated: number; unchanged: number; skipped: { id: string; reason: string }[] };
  if (isOpenRouterModels(json)) {
    format = 'openrouter';
    const merge = withPriceData(deps.prices.data, () => mergeOpenRouterPrices(current, json, today));
    data = merge.providers;
    counts = {
      seen: merge.seen,
      updated: merge.updated.length,
      unchanged: merge.unchanged.length,
      skipped: merge.skipped.map((s) => ({ id: s.id, reason: s.reason })),
    };
    if (merge.updated.length === 0 && merge.unchanged.length === 0)
      return failed('no OpenRouter entry matched a known model', format);
  } else if (Array.isArray(json)) {
    format = 'genai-prices';
    data = json;
    const before = modelKeys(current);
    let seen = 0;
    let updated = 0;
    for (const p of json as Provider[]) {
      for (const m of Array.isArray(p?.models) ? p.models : []) {
        seen += 1;
        if (before.get(`${p.id}/${m.id}`) !== JSON.stringify(m)) updated += 1;
      }
    }
    counts = { seen, updated, unchanged: seen - updated, skipped: [] };
  } else {
    return failed(
      'the price data is neither genai-prices data (an array of providers) nor an OpenRouter /models answer',
    );
  }

  let effectiveFrom: string;
  try {
    effectiveFrom = (await deps.prices.replaceData(data, { effectiveFrom: today, source: format })).effectiveFrom;
  } catch (error) {
    if (error instanceof PriceDataError) return failed(`the price data is invalid: ${error.message}`, format);
    throw error;
  }

  let persisted = true;
  let reason: string | undefined;
  try {
    await deps.store.save({ source: format, effectiveFrom, data: JSON.stringify(data), fetchedAt: now });
  } catch (error) {
    persisted = false;
    reason = `prices switched but could not be kept at ${deps.store.location}: ${(error as Error).message}`;
  }
  const repriced = deps.reprice ? await deps.reprice() : undefined;
  return {
    success: true,
    updated: true,
    ...base,
    format,
    source: format,
    effective_from: effectiveFrom,
    models_seen: counts.seen,
    models_updated: counts.updated,
    models_unchanged: counts.unchanged,
    models_skipped: counts.skipped.length,
    skipped: counts.skipped.slice(0, 100),
    persisted,
    ...(repriced ? { costs_repriced: repriced.changed } : {}),
    ...(reason ? { reason } : {}),
  };
}

/** At start-up: switches to the price data an earlier sync kept, if any; returns what happened, for the log. */
export async function restoreStoredPricing(deps: { prices: PriceService; store: PricingStore }): Promise<string> {
  let stored;
  try {
    stored = await deps.store.load();
  } catch (error) {
    return `kept price data unreadable (${(error as Error).message}); using the bundled prices`;
  }
  if (!stored) return 'no kept price data; using the bundled prices';
  try {
    await deps.prices.replaceData(stored.data, { effectiveFrom: stored.effectiveFrom, source: stored.source });
    return `restored ${stored.source} prices effective ${stored.effectiveFrom}`;
  } catch (error) {
    return `kept price data rejected (${(error as Error).message}); using the bundled prices`;
  }
}
