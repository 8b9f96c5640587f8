/**
 * @fileoverview Public surface of the pricing module: the price service over
 * `@pydantic/genai-prices`, exact cost arithmetic, pricing modes, money formatting and the rates
 * the ingest writers price with. Its words are the glossary's (docs/architecture.md, "Prices").
 */

export {
  createCostAccumulator,
  rowCostMicros,
  type CostAccumulator,
  type CostAccumulatorOptions,
  type PricedUsage,
  type PricingSummary,
} from './cost.js';
export { MICROS_PER_USD, formatMicros, parseMicros, totalsWithCost, type TokenCountsWithCostWire } from './money.js';
export {
  OVERLAP_SOURCES,
  combinePricingModes,
  pricingModeForSource,
  type PricingMode,
  type PricingModeSummary,
} from './modes.js';
export {
  BUNDLED_PRICES_EFFECTIVE_FROM,
  BUNDLED_PRICES_VERSION,
  DEFAULT_PRICING_MODEL,
  PRICE_HISTORY_START,
  PRICING_SOURCE,
  PriceDataError,
  createPriceData,
  createPriceService,
  priceDataReady,
  type DayPrice,
  type ModelIdentity,
  type PriceData,
  type PriceService,
  type PriceServiceOptions,
  type ReplaceDataResult,
} from './price-service.js';
export {
  FEMTO_PER_MICRO,
  costFemto,
  femtoToMicros,
  libraryUsage,
  ratesFromModelPrice,
  usdPerMtokToFemto,
  type TokenRates,
} from './rates.js';
export { bundledPriceData, withPriceData } from './price-data.js';
export { fixedPrices, type CostRates, type RatesOf, type PriceSource } from './price-source.js';
export {
  isOpenRouterModels,
  mergeOpenRouterPrices,
  perTokenToPerMtok,
  type OpenRouterMerge,
  type OpenRouterSkipReason,
} from './openrouter.js';
