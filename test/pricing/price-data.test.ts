/**
 * Price data sets as values: services pinned to different data sets price side by side in one
 * process (the library holds one data set at a time; each is installed before its calls), and a
 * replacement of the process's data moves only the services that follow it.
 */
import { waitForUpdate, type Provider } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import { bundledPriceData, withPriceData } from '../../src/pricing/price-data.js';
import {
  createPriceData,
  createPriceService,
  PriceDataError,
  priceDataReady,
} from '../../src/pricing/price-service.js';

async function withGpt5Input(usdPerMtok: number): Promise<Provider[]> {
  const data = JSON.parse(JSON.stringify(await waitForUpdate())) as Provider[];
  const model = data.find((p) => p.id === 'openai')?.models.find((m) => m.id === 'gpt-5');
  if (!model || Array.isArray(model.prices)) throw new Error('fixture model not found');
  model.prices = { ...model.prices, input_mtok: usdPerMtok };
  return data;
}

describe('price data sets', () => {
  it('price side by side in one process, each with its own data', async () => {
    await priceDataReady();
    const bundled = createPriceService({ data: bundledPriceData() });
    const dearer = createPriceService({
      data: createPriceData(await withGpt5Input(2.5), { effectiveFrom: '2026-11-22' }),
    });
    const current = createPriceService();
    expect(dearer.fingerprint).toMatch(/^genai-prices@2026-11-22 /);
    expect(bundled.fingerprint).toBe('genai-prices@0.1.8 bundled');
    // Interleaved, with caches cold each time: every call installs its own data first.
    for (const model of ['gpt-5', 'gpt-5-2025-08-07', 'openai/gpt-5']) {
      expect(dearer.priceOnDate(model, '2026-11-20').rates.input).toBe(2_500_000_000n);
      expect(bundled.priceOnDate(model, '2026-11-20').rates.input).toBe(1_250_000_000n);
      expect(current.priceOnDate(model, '2026-11-20').rates.input).toBe(1_250_000_000n);
    }
    // The same data again under its known fingerprint (as read back from the database).
    const again = createPriceData(JSON.stringify(dearer.data.providers), {
      effectiveFrom: '2026-11-22',
      fingerprint: dearer.fingerprint,
    });
    expect(again.fingerprint).toBe(dearer.fingerprint);

    // Replacing the process's data moves the services that follow it, not the pinned ones.
    await current.replaceData(await withGpt5Input(5), { effectiveFrom: '2026-11-23' });
    expect(current.priceOnDate('gpt-5', '2026-11-20').rates.input).toBe(5_000_000_000n);
    expect(createPriceService().priceOnDate('gpt-5', '2026-11-20').rates.input).toBe(5_000_000_000n);
    expect(bundled.priceOnDate('gpt-5', '2026-11-21').rates.input).toBe(1_250_000_000n);
    expect(dearer.priceOnDate('gpt-5', '2026-11-21').rates.input).toBe(2_500_000_000n);
    expect(withPriceData(bundledPriceData(), () => bundled.identify('gpt-5').known)).toBe(true);
    await current.replaceData(bundledPriceData().providers, { effectiveFrom: '2026-09-23' });
  });

  it('are checked like replaced data', async () => {
    await priceDataReady();
    const onlyAnthropic = ((await waitForUpdate()) ?? []).filter((p) => p.id === 'anthropic');
    expect(() => createPriceData(onlyAnthropic, { effectiveFrom: '2026-11-22' })).toThrow(PriceDataError);
    expect(() => createPriceData('[]', { effectiveFrom: '2026-11-22' })).toThrow(/non-empty array/);
    // The library keeps the data it held.
    expect(createPriceService({ data: bundledPriceData() }).identify('gpt-5.2-codex').known).toBe(true);
  });
});
