import fc from 'fast-check';
import { calcPrice } from '@pydantic/genai-prices';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { epochDayOf } from '../../src/domain/calendar.js';
import {
  BUNDLED_PRICES_EFFECTIVE_FROM,
  BUNDLED_PRICES_VERSION,
  PRICE_HISTORY_START,
  createPriceService,
} from '../../src/pricing/price-service.js';
import { costFemto, libraryUsage } from '../../src/pricing/rates.js';

const SEED = 4_242_026;
console.info(`price-service: fast-check seed ${SEED}`);

const prices = createPriceService();

describe('identify', () => {
  it('groups spellings under the database id with a display name; another model keeps its own id, priced as its match', () => {
    expect(prices.identify('gpt-5.2')).toEqual({
      model_id: 'gpt-5.2',
      model: 'GPT-5.2',
      known: true,
      provider: 'openai',
      priced_as: null,
    });
    expect(prices.identify('gpt-5.2-codex')).toEqual({
      model_id: 'gpt-5.2-codex',
      model: 'gpt-5.2-codex',
      known: true,
      provider: 'openai',
      priced_as: 'gpt-5.2',
    });
    expect(prices.identify('gpt-5-codex').model_id).toBe('gpt-5-codex');
    expect(prices.identify('gpt-5').model_id).toBe('gpt-5');
    expect(prices.identify('claude-sonnet-4-5-20250929')).toMatchObject({
      model_id: 'claude-sonnet-4-5',
      model: 'Claude Sonnet 4.5',
      provider: 'anthropic',
    });
    expect(prices.identify('  Claude-Sonnet-4-5 ').model_id).toBe('claude-sonnet-4-5');
  });

  it('understands provider prefixes', () => {
    expect(prices.identify('anthropic/claude-sonnet-4')).toMatchObject({ model_id: 'claude-sonnet-4-0', known: true });
    expect(prices.identify('openai/gpt-4o')).toMatchObject({ model_id: 'gpt-4o', known: true });
  });

  it('keeps the raw name for unknown models', () => {
    expect(prices.identify('my-local-llama')).toEqual({
      model_id: 'my-local-llama',
      model: 'my-local-llama',
      known: false,
      provider: null,
      priced_as: null,
    });
    expect(prices.identify('unknown')).toMatchObject({ known: false, model_id: 'unknown' });
  });

  it('matches a model filter by raw name or canonical id', () => {
    expect(prices.matchesModelFilter('gpt-5-codex', 'gpt-5')).toBe(false);
    expect(prices.matchesModelFilter('gpt-5-2025-08-07', 'gpt-5')).toBe(true);
    expect(prices.matchesModelFilter('claude-sonnet-4-5-20250929', 'Claude-Sonnet-4.5')).toBe(true);
    expect(prices.matchesModelFilter('gpt-5.2-codex', 'GPT-5.2-Codex')).toBe(true);
    expect(prices.matchesModelFilter('gpt-5.2-codex', 'gpt-5.2')).toBe(false);
    expect(prices.matchesModelFilter('gpt-5.2-codex', 'gpt-5')).toBe(false);
    expect(prices.matchesModelFilter('my-local-llama', 'my-local-llama')).toBe(true);
    expect(prices.matchesModelFilter('my-local-llama', 'other-llama')).toBe(false);
  });
});

describe('priceOn', () => {
  it('uses the database price with base tiers', () => {
    const p = prices.priceOnDate('gpt-5-codex', '2026-01-15');
    expect(p).toMatchObject({
      modelId: 'gpt-5-codex',
      isDefault: false,
      pricedAs: 'gpt-5',
      provider: 'openai',
      effectiveFrom: PRICE_HISTORY_START,
    });
    expect(p.rates).toEqual({
      input: 1_250_000_000n,
      cached: 125_000_000n,
      output: 10_000_000_000n,
      reasoning: 10_000_000_000n,
    });
    expect(prices.priceOnDate('claude-sonnet-4-5', '2026-01-15').rates.input).toBe(3_000_000_000n);
  });

  it('uses the price in force on the day', () => {
    const before = prices.priceOnDate('o3', '2025-06-09');
    const after = prices.priceOnDate('o3', '2025-06-10');
    expect(before.rates.input).toBe(10_000_000_000n);
    expect(before.effectiveFrom).toBe(PRICE_HISTORY_START);
    expect(after.rates.input).toBe(2_000_000_000n);
    expect(after.effectiveFrom).toBe('2025-06-10');
  });

  it('prices unknown models with the default profile and says so', () => {
    const p = prices.priceOnDate('my-local-llama', '2026-01-15');
    expect(p).toMatchObject({ modelId: 'my-local-llama', isDefault: true, pricedAs: 'gpt-5.2', provider: 'openai' });
    expect(p.rates).toEqual({
      input: 1_750_000_000n,
      cached: 175_000_000n,
      output: 14_000_000_000n,
      reasoning: 14_000_000_000n,
    });
    expect(prices.defaultIdentity).toMatchObject({ model_id: 'gpt-5.2-codex', priced_as: 'gpt-5.2' });
  });

  it('records the release date of the bundled data version it was written for', () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../node_modules/@pydantic/genai-prices/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(pkg.version).toBe(BUNDLED_PRICES_VERSION);
    expect(prices.dataEffectiveFrom).toBe(BUNDLED_PRICES_EFFECTIVE_FROM);
    expect(prices.source).toBe('genai-prices');
  });

  it('agrees with the library’s own calculation for both modes (property, base tier)', () => {
    const models = [
      ['gpt-5', '2026-01-15'],
      ['gpt-5.2-codex', '2026-03-01'],
      ['claude-sonnet-4-5-20250929', '2026-02-01'],
      ['claude-opus-4-1', '2025-10-01'],
      ['o3', '2025-05-01'],
      ['kimi-k2', '2025-12-01'],
      ['deepseek-chat', '2026-01-15'],
      ['gemini-2.5-pro', '2026-01-15'],
    ] as const;
    const count = fc.bigInt({ min: 0n, max: 90_000n }); // stays under the 200k-token tier so base = library
    fc.assert(
      fc.property(
        fc.constantFrom(...models),
        fc.constantFrom('overlap' as const, 'add' as const),
        fc.record({ input: count, cached: count, output: count, reasoning: count }),
        ([model, day], mode, counts) => {
          const price = prices.priceOnDate(model, day);
          const ours = Number(costFemto(counts, mode, price.rates)) / 1e9; // micro-dollars
          const at = new Date(epochDayOf(day) * 86_400_000 + 12 * 3_600_000);
          const lib = calcPrice(libraryUsage(counts, mode), model, { timestamp: at });
          expect(lib).not.toBeNull();
          const theirs = (lib?.total_price ?? Number.NaN) * 1e6;
          expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(1e-6 * Math.max(1, ours));
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });
});
