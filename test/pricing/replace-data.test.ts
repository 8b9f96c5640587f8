import { waitForUpdate, type Provider } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import { createCostAccumulator } from '../../src/pricing/cost.js';
import { PriceDataError, createPriceService } from '../../src/pricing/price-service.js';

async function bundledCopy(): Promise<Provider[]> {
  const current = await waitForUpdate();
  return JSON.parse(JSON.stringify(current)) as Provider[];
}

function setInputPrice(data: Provider[], providerId: string, modelId: string, usdPerMtok: number): void {
  const model = data.find((p) => p.id === providerId)?.models.find((m) => m.id === modelId);
  if (!model || Array.isArray(model.prices)) throw new Error('fixture model not found');
  model.prices = { ...model.prices, input_mtok: usdPerMtok };
}

describe('replaceData', () => {
  it('swaps prices at run time for every service instance and clears caches', async () => {
    const a = createPriceService();
    const b = createPriceService();
    expect(a.priceOnDate('gpt-5', '2026-11-20').rates.input).toBe(1_250_000_000n);
    expect(b.identify('gpt-9-test').known).toBe(false);

    const data = await bundledCopy();
    setInputPrice(data, 'openai', 'gpt-5', 2.5);
    data
      .find((p) => p.id === 'openai')
      ?.models.push({
        id: 'gpt-9-test',
        name: 'GPT 9 Test',
        match: { equals: 'gpt-9-test' },
        prices: { input_mtok: 1, output_mtok: 2 },
      });
    const result = await a.replaceData(JSON.stringify(data), { effectiveFrom: '2026-11-22' });
    expect(result).toMatchObject({ providers: data.length, effectiveFrom: '2026-11-22', source: 'genai-prices' });
    expect(result.models).toBeGreaterThan(1000);

    expect(a.priceOnDate('gpt-5', '2026-11-20').rates.input).toBe(2_500_000_000n);
    expect(b.priceOnDate('gpt-5', '2026-11-20').rates.input).toBe(2_500_000_000n);
    expect(b.identify('gpt-9-test')).toEqual({
      model_id: 'gpt-9-test',
      model: 'GPT 9 Test',
      known: true,
      provider: 'openai',
      priced_as: null,
    });
    expect(b.dataEffectiveFrom).toBe('2026-11-22');
    const acc = createCostAccumulator(b);
    acc.add({
      hourStart: Date.parse('2026-11-20T10:00:00Z'),
      source: 'codex',
      model: 'gpt-5',
      input: 1_000_000n,
      cached: 0n,
      output: 0n,
      reasoning: 0n,
      total: 1_000_000n,
      billable: 1_000_000n,
    });
    expect(acc.totalMicros()).toBe(2_500_000n);
    expect(acc.summary().data_effective_from).toBe('2026-11-22');
  });

  it('rejects unusable data and keeps the previous prices', async () => {
    const svc = createPriceService();
    const before = svc.priceOnDate('claude-opus-4-1', '2026-01-01');
    const onlyAnthropic = (await bundledCopy()).filter((p) => p.id === 'anthropic');
    const badConstraint = await bundledCopy();
    const gpt5 = badConstraint.find((p) => p.id === 'openai')?.models.find((m) => m.id === 'gpt-5');
    if (gpt5) gpt5.prices = [{ constraint: { type: 'start_date', start_date: 'soon' }, prices: { input_mtok: 1 } }];

    const cases: [unknown, RegExp][] = [
      ['{not json', /not JSON/],
      ['[]', /non-empty array/],
      [{ providers: [] }, /non-empty array/],
      [[{ id: 'x' }], /lacks id, name, api_pattern or models/],
      [[{ id: 'x', name: 'X', api_pattern: '.*', models: [{ id: 'm' }] }], /lacks id, match or prices/],
      [onlyAnthropic, /cannot price the default model/],
      [badConstraint, /rejected by the library/],
    ];
    for (const [data, message] of cases) {
      await expect(svc.replaceData(data, { effectiveFrom: '2026-11-22' })).rejects.toThrow(message);
      await expect(svc.replaceData(data, { effectiveFrom: '2026-11-22' })).rejects.toBeInstanceOf(PriceDataError);
      expect(svc.priceOnDate('claude-opus-4-1', '2026-01-01')).toEqual(before);
      expect(svc.identify('gpt-5.2-codex').known).toBe(true);
    }
    await expect(svc.replaceData(await bundledCopy(), { effectiveFrom: '22-11-2026' })).rejects.toThrow(
      /effectiveFrom/,
    );
  });
});
