import { waitForUpdate, type Provider } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import { isOpenRouterModels, mergeOpenRouterPrices, perTokenToPerMtok } from '../../src/pricing/openrouter.js';
import { createPriceService } from '../../src/pricing/price-service.js';

const price = (prompt: string, completion: string, cacheRead?: string) => ({
  prompt,
  completion,
  request: '0',
  ...(cacheRead === undefined ? {} : { input_cache_read: cacheRead }),
});

describe('perTokenToPerMtok', () => {
  it('shifts decimals exactly', () => {
    expect(perTokenToPerMtok('0.00000125')).toBe(1.25);
    expect(perTokenToPerMtok('0.000000175')).toBe(0.175);
    expect(perTokenToPerMtok('0.00001')).toBe(10);
    expect(perTokenToPerMtok('0')).toBe(0);
    expect(perTokenToPerMtok('2.5e-7')).toBe(0.25);
    expect(perTokenToPerMtok('-1')).toBeNull();
    expect(perTokenToPerMtok(undefined)).toBeNull();
    expect(perTokenToPerMtok('abc')).toBeNull();
  });

  it('tells OpenRouter answers from genai-prices data', () => {
    expect(isOpenRouterModels({ data: [] })).toBe(true);
    expect(isOpenRouterModels([])).toBe(false);
    expect(isOpenRouterModels(null)).toBe(false);
  });
});

describe('mergeOpenRouterPrices', () => {
  it('adds dated prices that the price service then uses from that day on', async () => {
    const current = (await waitForUpdate()) as Provider[];
    const before = JSON.stringify(current);
    const openRouter = {
      data: [
        { id: 'openai/gpt-5', pricing: price('0.0000015', '0.000012', '0.00000015') },
        { id: 'openai/gpt-5-chat', pricing: price('0.000002', '0.00002') },
        { id: 'openai/gpt-5-mini', pricing: price('0.00000025', '0.000002', '0.000000025') },
        { id: 'openai/gpt-5:free', pricing: price('0', '0') },
        { id: 'meta-llama/llama-4-maverick', pricing: price('0.0000002', '0.0000006') },
        { id: 'openai/not-a-model-at-all', pricing: price('0.000001', '0.000001') },
        { id: 'openai/o3', pricing: price('-1', '-1') },
        { nonsense: true },
      ],
    };
    const merge = mergeOpenRouterPrices(current, openRouter, '2026-11-22');
    expect(JSON.stringify(current)).toBe(before); // input untouched
    expect(merge.seen).toBe(8);
    expect(merge.updated).toEqual(['openai/gpt-5']);
    expect(merge.unchanged).toEqual(['openai/gpt-5-mini']);
    expect(merge.skipped).toEqual(
      expect.arrayContaining([
        { id: 'openai/gpt-5:free', reason: 'variant' },
        { id: 'meta-llama/llama-4-maverick', reason: 'unknown_vendor' },
        { id: 'openai/not-a-model-at-all', reason: 'unmatched' },
        { id: 'openai/o3', reason: 'no_token_prices' },
        { id: '?', reason: 'malformed' },
        { id: 'openai/gpt-5-chat', reason: 'ambiguous' },
      ]),
    );
    expect(merge.skipped).toHaveLength(6);

    const svc = createPriceService();
    await svc.replaceData(merge.providers, { effectiveFrom: '2026-11-22', source: 'openrouter' });
    expect(svc.source).toBe('openrouter');
    expect(svc.priceOnDate('gpt-5-codex', '2026-11-21').rates.input).toBe(1_250_000_000n);
    const after = svc.priceOnDate('gpt-5-codex', '2026-11-22');
    expect(after.rates).toEqual({
      input: 1_500_000_000n,
      cached: 150_000_000n,
      output: 12_000_000_000n,
      reasoning: 12_000_000_000n,
    });
    expect(after.effectiveFrom).toBe('2026-11-22');
    expect(svc.identify('gpt-5-codex')).toMatchObject({ model: 'gpt-5-codex', priced_as: 'gpt-5' });

    // A second sync on a later day with the same prices changes nothing; with new prices it adds another period.
    expect(mergeOpenRouterPrices(merge.providers, { data: [openRouter.data[0]] }, '2026-11-23').updated).toEqual([]);
    const third = mergeOpenRouterPrices(
      merge.providers,
      { data: [{ id: 'openai/gpt-5', pricing: price('0.000001', '0.000008') }] },
      '2026-12-01',
    );
    expect(third.updated).toEqual(['openai/gpt-5']);
    await svc.replaceData(third.providers, { effectiveFrom: '2026-12-01', source: 'openrouter' });
    expect(svc.priceOnDate('gpt-5', '2026-11-30').rates.input).toBe(1_500_000_000n);
    expect(svc.priceOnDate('gpt-5', '2026-12-01').rates.input).toBe(1_000_000_000n);
    expect(svc.priceOnDate('gpt-5', '2026-12-01').rates.cached).toBe(150_000_000n); // kept from the previous period
  });

  it('keeps future-dated entries in force after their own start', async () => {
    const current = (await waitForUpdate()) as Provider[];
    const merge = mergeOpenRouterPrices(
      current,
      { data: [{ id: 'google/gemini-3.6-flash', pricing: price('0.000001', '0.000004') }] },
      '2026-11-22',
    );
    expect(merge.updated).toEqual(['google/gemini-3.6-flash']);
    const svc = createPriceService();
    await svc.replaceData(merge.providers, { effectiveFrom: '2026-11-22' });
    expect(svc.priceOnDate('gemini-3.6-flash', '2026-11-21').rates.input).toBe(750_000_000n);
    expect(svc.priceOnDate('gemini-3.6-flash', '2026-12-15').rates.input).toBe(1_000_000_000n);
    expect(svc.priceOnDate('gemini-3.6-flash', '2027-01-02').rates.input).toBe(1_500_000_000n);
  });
});
