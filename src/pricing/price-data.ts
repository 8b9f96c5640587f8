/**
 * @fileoverview Price data sets as values. `@pydantic/genai-prices` keeps one data set in module
 * state; a {@link PriceData} here is installed into it (synchronously, about a millisecond) before
 * each library call made for it, so one process can price with several data sets at once: the
 * data the stored costs were priced by and the data a repricing moves them to (docs/pricing.md,
 * "Stored costs"). The price service asks the library only once per model and price period, so
 * the data sets change places rarely.
 */

import { createHash } from 'node:crypto';
import { updatePrices, waitForUpdate, type Provider } from '@pydantic/genai-prices';
import { isValidLocalDate, type LocalDate } from '../domain/calendar.js';

/** `source` reported for prices from `@pydantic/genai-prices`. */
export const PRICING_SOURCE = 'genai-prices';

/** Release date of the bundled `@pydantic/genai-prices` data (0.1.8, 2026-09-23); update together with the dependency. */
export const BUNDLED_PRICES_EFFECTIVE_FROM: LocalDate = '2026-09-23';

/** The version of `@pydantic/genai-prices` whose release date {@link BUNDLED_PRICES_EFFECTIVE_FROM} records. */
export const BUNDLED_PRICES_VERSION = '0.1.8';

/** Thrown when price data is unusable; the data in use stays. */
export class PriceDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PriceDataError';
  }
}

/** One price data set. */
export interface PriceData {
  /** The providers as the library takes them. */
  readonly providers: readonly Provider[];
  /** `source` label (`genai-prices` unless synced from another source). */
  readonly source: string;
  /** Date the data took effect (bundled: the package's release date; synced: the sync's date). */
  readonly effectiveFrom: LocalDate;
  /**
   * Identifies the data, the same in every process that has it: the bundled package version, or
   * the label, date and a digest of other data. Stored costs record the fingerprint of the data
   * that priced them.
   */
  readonly fingerprint: string;
}

let bundledProviders: Provider[] | undefined;
// The library starts with its bundled data; keep it, to install it again after other data.
const captured = waitForUpdate().then((providers) => {
  bundledProviders = providers ?? [];
});

/** The bundled data. Its providers are known once {@link priceDataReady} resolved (needed only to install it again). */
const BUNDLED: PriceData = {
  get providers(): readonly Provider[] {
    if (bundledProviders === undefined)
      throw new Error('the bundled price data is not read yet (await priceDataReady())');
    return bundledProviders;
  },
  source: PRICING_SOURCE,
  effectiveFrom: BUNDLED_PRICES_EFFECTIVE_FROM,
  fingerprint: `${PRICING_SOURCE}@${BUNDLED_PRICES_VERSION} bundled`,
};

/** The data set the library holds now. */
let installed: PriceData = BUNDLED;

/** Resolves once the bundled data is kept (a few microtasks after this module loaded). */
export function priceDataReady(): Promise<void> {
  return captured;
}

/** The data bundled with the installed `@pydantic/genai-prices`. */
export function bundledPriceData(): PriceData {
  return BUNDLED;
}

function install(data: PriceData): void {
  updatePrices(({ setProviderData }) => {
    setProviderData(data.providers as Provider[]);
  });
  installed = data;
}

/** Runs `fn` (synchronous library calls) with `data` installed in the library. */
export function withPriceData<T>(data: PriceData, fn: () => T): T {
  if (installed !== data) install(data);
  return fn();
}

/** Checks the shape of providers (JSON text or parsed); throws {@link PriceDataError}. */
export function validateProviders(data: unknown): Provider[] {
  let parsed = data;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed) as unknown;
    } catch (err) {
      throw new PriceDataError(`price data is not JSON: ${(err as Error).message}`);
    }
  }
  if (!Array.isArray(parsed) || parsed.length === 0)
    throw new PriceDataError('price data must be a non-empty array of providers');
  parsed.forEach((p: unknown, i) => {
    const provider = p as Partial<Record<keyof Provider, unknown>> | null;
    if (typeof provider !== 'object' || provider === null) throw new PriceDataError(`provider ${i} is not an object`);
    if (
      typeof provider.id !== 'string' ||
      typeof provider.name !== 'string' ||
      typeof provider.api_pattern !== 'string' ||
      !Array.isArray(provider.models)
    ) {
      throw new PriceDataError(`provider ${i} lacks id, name, api_pattern or models`);
    }
    provider.models.forEach((m: unknown, j) => {
      const model = m as Partial<Record<string, unknown>> | null;
      if (
        typeof model !== 'object' ||
        model === null ||
        typeof model.id !== 'string' ||
        typeof model.match !== 'object' ||
        model.match === null ||
        typeof model.prices !== 'object' ||
        model.prices === null
      ) {
        throw new PriceDataError(`model ${j} of provider ${provider.id as string} lacks id, match or prices`);
      }
    });
  });
  return parsed as Provider[];
}

/**
 * A data set over checked providers: installs it to let the library validate it, runs `check`
 * with it installed (e.g. that the default model can be priced), and gives the library back the
 * data it held. Throws {@link PriceDataError} when the library or `check` rejects it.
 */
export function checkedPriceData(
  providers: Provider[],
  info: { readonly effectiveFrom: LocalDate; readonly source: string; readonly fingerprint?: string },
  check: (data: PriceData) => string | null,
): PriceData {
  if (!isValidLocalDate(info.effectiveFrom))
    throw new PriceDataError(`effectiveFrom must be YYYY-MM-DD (got ${info.effectiveFrom})`);
  // Installing another data set replaces the library's; the one it held must be installable again.
  if (bundledProviders === undefined)
    throw new Error('the bundled price data is not read yet (await priceDataReady())');
  const digest =
    info.fingerprint === undefined
      ? createHash('sha256').update(JSON.stringify(providers)).digest('base64url').slice(0, 22)
      : '';
  const data: PriceData = {
    providers,
    source: info.source,
    effectiveFrom: info.effectiveFrom,
    fingerprint: info.fingerprint ?? `${info.source}@${info.effectiveFrom} ${digest}`,
  };
  const previous = installed;
  let problem: string | null;
  try {
    install(data);
    problem = check(data);
  } catch (err) {
    install(previous);
    throw new PriceDataError(`price data rejected by the library: ${(err as Error).message}`);
  }
  install(previous);
  if (problem !== null) throw new PriceDataError(problem);
  return data;
}
