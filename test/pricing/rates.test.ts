import { describe, expect, it } from 'vitest';
import { formatMicros, totalsWithCost } from '../../src/pricing/money.js';
import { combinePricingModes, pricingModeForSource } from '../../src/pricing/modes.js';
import {
  costFemto,
  femtoToMicros,
  libraryUsage,
  ratesFromModelPrice,
  usdPerMtokToFemto,
} from '../../src/pricing/rates.js';
import { TieredPrices } from '@pydantic/genai-prices';

describe('formatMicros', () => {
  it('prints six decimals', () => {
    expect(formatMicros(0n)).toBe('0.000000');
    expect(formatMicros(5n)).toBe('0.000005');
    expect(formatMicros(1_234_567n)).toBe('1.234567');
    expect(formatMicros(2n ** 64n)).toBe('18446744073709.551616');
    expect(formatMicros(-1_500_000n)).toBe('-1.500000');
  });

  it('builds response totals with the cost', () => {
    const t = { total: 2n ** 60n, billable: 5n, input: 4n, cached: 3n, output: 2n, reasoning: 1n };
    expect(totalsWithCost(t, 1_234_567n)).toEqual({
      total_tokens: '1152921504606846976',
      billable_total_tokens: '5',
      input_tokens: '4',
      cached_input_tokens: '3',
      output_tokens: '2',
      reasoning_output_tokens: '1',
      total_cost_usd: '1.234567',
    });
  });
});

describe('pricing modes', () => {
  it('follows source semantics', () => {
    expect(pricingModeForSource('codex')).toBe('overlap');
    expect(pricingModeForSource('every-code')).toBe('overlap');
    expect(pricingModeForSource(' Codex ')).toBe('overlap');
    for (const s of ['claude', 'opencode', 'gemini', 'kimi', 'unknown']) expect(pricingModeForSource(s)).toBe('add');
  });

  it('combines into a single mode or mixed', () => {
    expect(combinePricingModes([])).toBe('add');
    expect(combinePricingModes(['overlap', 'overlap'])).toBe('overlap');
    expect(combinePricingModes(['add'])).toBe('add');
    expect(combinePricingModes(['overlap', 'add'])).toBe('mixed');
  });
});

describe('rates', () => {
  it('converts USD per million tokens to femto-dollars per token exactly', () => {
    expect(usdPerMtokToFemto(1.75)).toBe(1_750_000_000n);
    expect(usdPerMtokToFemto(0.175)).toBe(175_000_000n);
    expect(usdPerMtokToFemto(0.0375)).toBe(37_500_000n);
    expect(usdPerMtokToFemto(15)).toBe(15_000_000_000n);
    expect(usdPerMtokToFemto(0)).toBe(0n);
    expect(usdPerMtokToFemto(1e-7)).toBe(100n);
    expect(usdPerMtokToFemto(0.1234567891)).toBe(123_456_789n);
    expect(() => usdPerMtokToFemto(-1)).toThrow(RangeError);
  });

  it('reads base tiers and falls back for missing cache-read and reasoning prices', () => {
    const tiered = new TieredPrices({ base: 3, tiers: [{ start: 200_000, price: 6 }] });
    expect(ratesFromModelPrice({ input_mtok: tiered, output_mtok: 15, cache_read_mtok: 0.3 })).toEqual({
      input: 3_000_000_000n,
      cached: 300_000_000n,
      output: 15_000_000_000n,
      reasoning: 15_000_000_000n,
    });
    expect(ratesFromModelPrice({ input_mtok: 0.57, output_mtok: 2.3 })).toMatchObject({ cached: 570_000_000n });
    expect(ratesFromModelPrice({ input_mtok: 1, output_mtok: 2, output_reasoning_mtok: 3 })?.reasoning).toBe(
      3_000_000_000n,
    );
    expect(ratesFromModelPrice({ input_audio_mtok: 1 })).toBeNull();
  });

  it('costs overlap counts with cached inside input and reasoning inside output', () => {
    const rates = { input: 1_750_000_000n, cached: 175_000_000n, output: 14_000_000_000n, reasoning: 14_000_000_000n };
    const counts = { input: 1_000_000n, cached: 400_000n, output: 100_000n, reasoning: 60_000n };
    // 600k × 1.75 + 400k × 0.175 + 100k × 14 (reasoning inside output) = 1.05 + 0.07 + 1.4 USD
    expect(femtoToMicros(costFemto(counts, 'overlap', rates))).toBe(2_520_000n);
    // add: 1M × 1.75 + 400k × 0.175 + 100k × 14 + 60k × 14 = 1.75 + 0.07 + 1.4 + 0.84
    expect(femtoToMicros(costFemto(counts, 'add', rates))).toBe(4_060_000n);
    // Inconsistent overlap data (cached > input) never goes negative.
    expect(costFemto({ input: 5n, cached: 9n, output: 1n, reasoning: 3n }, 'overlap', rates)).toBe(
      5n * 175_000_000n + 1n * 14_000_000_000n,
    );
  });

  it('maps counts onto the library usage fields', () => {
    const counts = { input: 100n, cached: 40n, output: 30n, reasoning: 10n };
    expect(libraryUsage(counts, 'overlap')).toEqual({
      input_tokens: 100,
      cache_read_tokens: 40,
      output_tokens: 30,
      output_reasoning_tokens: 10,
    });
    expect(libraryUsage(counts, 'add')).toEqual({
      input_tokens: 140,
      cache_read_tokens: 40,
      output_tokens: 40,
      output_reasoning_tokens: 10,
    });
  });
});
