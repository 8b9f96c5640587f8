import { describe, expect, it, vi } from 'vitest';
import type * as GenaiPrices from '@pydantic/genai-prices';
import type { UsageRow } from '../../src/domain/usage-row.js';

const calls = vi.hoisted(() => ({ n: 0 }));

vi.mock('@pydantic/genai-prices', async (importOriginal) => {
  const actual = await importOriginal<typeof GenaiPrices>();
  return {
    ...actual,
    calcPrice: (...args: Parameters<typeof actual.calcPrice>) => {
      calls.n++;
      return actual.calcPrice(...args);
    },
  };
});

const { createPriceService } = await import('../../src/pricing/price-service.js');
const { createCostAccumulator } = await import('../../src/pricing/cost.js');

describe('price caching', () => {
  it('asks the library once per model and price period, not once per row or day', () => {
    const prices = createPriceService();
    const rows: UsageRow[] = [];
    const start = Date.parse('2025-01-01T00:00:00Z');
    const models = ['gpt-5-codex', 'o3', 'claude-sonnet-4-5', 'mystery-model'];
    for (let d = 0; d < 365; d++) {
      for (let h = 0; h < 16; h++) {
        const model = models[h % 4] as string;
        rows.push({
          hourStart: start + d * 86_400_000 + h * 1_800_000,
          source: 'codex',
          model,
          input: 10n,
          cached: 5n,
          output: 3n,
          reasoning: 1n,
          total: 13n,
          billable: 13n,
        });
      }
    }
    calls.n = 0;
    const acc = createCostAccumulator(prices);
    acc.addAll(rows);
    acc.totalMicros();
    const first = calls.n;
    // identities (≤ 3 attempts per name) + prices: gpt-5 1 period, o3 2 periods (2025-06-10), claude 1, unknown → default 1
    expect(first).toBeLessThanOrEqual(12);
    calls.n = 0;
    const again = createCostAccumulator(prices);
    again.addAll(rows);
    again.totalMicros();
    expect(calls.n).toBe(0);
    console.info(`cache: ${rows.length} rows priced with ${first} library calls, then 0`);
  });
});
