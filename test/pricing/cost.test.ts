import { describe, expect, it } from 'vitest';
import type { UsageRow } from '../../src/domain/usage-row.js';
import { createCostAccumulator } from '../../src/pricing/cost.js';
import { formatMicros } from '../../src/pricing/money.js';
import {
  BUNDLED_PRICES_EFFECTIVE_FROM,
  PRICE_HISTORY_START,
  createPriceService,
} from '../../src/pricing/price-service.js';

const prices = createPriceService();

function usage(
  iso: string,
  source: string,
  model: string,
  counts: Partial<Pick<UsageRow, 'input' | 'cached' | 'output' | 'reasoning'>>,
): UsageRow {
  const input = counts.input ?? 0n;
  const cached = counts.cached ?? 0n;
  const output = counts.output ?? 0n;
  const reasoning = counts.reasoning ?? 0n;
  return {
    hourStart: Date.parse(iso),
    source,
    model,
    input,
    cached,
    output,
    reasoning,
    total: input + output,
    billable: input + output,
  };
}

describe('createCostAccumulator', () => {
  it('prices a codex row with cached inside input (overlap)', () => {
    const acc = createCostAccumulator(prices);
    // gpt-5-codex, priced as gpt-5: 1.25 / 0.125 / 10 USD per million
    acc.add(
      usage('2026-01-15T10:00:00Z', 'codex', 'gpt-5-codex', {
        input: 1_000_000n,
        cached: 800_000n,
        output: 50_000n,
        reasoning: 20_000n,
      }),
    );
    // 200k × 1.25 + 800k × 0.125 + 50k × 10 = 0.25 + 0.1 + 0.5
    expect(formatMicros(acc.totalMicros())).toBe('0.850000');
    expect(acc.summary()).toEqual({
      model: 'gpt-5-codex',
      pricing_mode: 'overlap',
      source: 'genai-prices',
      effective_from: PRICE_HISTORY_START,
      data_effective_from: BUNDLED_PRICES_EFFECTIVE_FROM,
      default_profile: false,
      default_model: 'gpt-5.2-codex',
      unpriced_models: [],
    });
  });

  it('prices a claude row with disjoint counts (add)', () => {
    const acc = createCostAccumulator(prices);
    // claude-opus-4-1: 15 / 1.5 (cache read) / 75 USD per million
    acc.add(
      usage('2026-01-15T10:00:00Z', 'claude', 'claude-opus-4-1-20250805', {
        input: 10_000n,
        cached: 100_000n,
        output: 2_000n,
      }),
    );
    // 10k × 15 + 100k × 1.5 + 2k × 75 = 0.15 + 0.15 + 0.15
    expect(formatMicros(acc.totalMicros())).toBe('0.450000');
    expect(acc.summary()).toMatchObject({ model: 'claude-opus-4-1', pricing_mode: 'add' });
  });

  it('truncates once per (source, raw model, UTC day) — the grain of the stored daily costs — not per row', () => {
    // 1 uncached input token of gpt-5 costs 1.25 µ$; four of them in one day: 5 µ$ exactly.
    const oneDay = createCostAccumulator(prices);
    for (let i = 0; i < 4; i++) oneDay.add(usage(`2026-01-15T0${i}:00:00Z`, 'codex', 'gpt-5', { input: 1n }));
    expect(oneDay.totalMicros()).toBe(5n); // per-row truncation would give 4
    // Spread over four UTC days, each day truncates 1.25 → 1.
    const fourDays = createCostAccumulator(prices);
    for (let i = 0; i < 4; i++) fourDays.add(usage(`2026-01-1${i}T23:30:00Z`, 'codex', 'gpt-5', { input: 1n }));
    expect(fourDays.totalMicros()).toBe(4n);
    // Spellings of one model are stored (and truncated) apart, but reported as one model.
    const aliases = createCostAccumulator(prices);
    aliases.add(usage('2026-01-15T01:00:00Z', 'codex', 'gpt-5', { input: 1n }));
    aliases.add(usage('2026-01-15T02:00:00Z', 'codex', 'gpt-5-2025-08-07', { input: 1n }));
    aliases.add(usage('2026-01-15T03:00:00Z', 'codex', 'gpt-5-2025-08-07', { input: 1n }));
    expect(aliases.totalMicros()).toBe(3n); // 1.25 → 1, 2.5 → 2
    expect(aliases.summary().model).toBe('gpt-5');
  });

  it('uses the price in force on each UTC day', () => {
    const acc = createCostAccumulator(prices);
    acc.add(usage('2025-06-09T23:30:00Z', 'codex', 'o3', { input: 1_000_000n })); // 10 USD/M
    acc.add(usage('2025-06-10T00:00:00Z', 'codex', 'o3', { input: 1_000_000n })); // 2 USD/M
    expect(formatMicros(acc.totalMicros())).toBe('12.000000');
    expect(acc.summary().effective_from).toBe('2025-06-10');
  });

  it('reports mixed modes, several models, and default-priced unknown models', () => {
    const acc = createCostAccumulator(prices);
    acc.add(usage('2026-01-15T10:00:00Z', 'codex', 'gpt-5', { input: 1n }));
    acc.add(usage('2026-01-15T10:00:00Z', 'opencode', 'my-local-llama', { input: 1_000_000n }));
    const s = acc.summary();
    expect(s).toMatchObject({
      model: null,
      pricing_mode: 'mixed',
      default_profile: true,
      unpriced_models: ['my-local-llama'],
    });
    // default profile gpt-5.2: 1.75 USD/M input; plus 1.25 µ$ truncated to 1
    expect(acc.totalMicros()).toBe(1_750_000n + 1n);
  });

  it('names a single unknown model and flags the default profile', () => {
    const acc = createCostAccumulator(prices);
    acc.add(usage('2026-01-15T10:00:00Z', 'kimi', 'unknown', { input: 1_000_000n, output: 1_000_000n }));
    expect(acc.summary()).toMatchObject({
      model: 'unknown',
      pricing_mode: 'add',
      default_profile: true,
      unpriced_models: ['unknown'],
    });
    expect(formatMicros(acc.totalMicros())).toBe('15.750000');
  });

  it('answers zero and the data date for no rows', () => {
    const acc = createCostAccumulator(prices);
    expect(formatMicros(acc.totalMicros())).toBe('0.000000');
    expect(acc.summary()).toMatchObject({
      model: null,
      pricing_mode: 'add',
      effective_from: BUNDLED_PRICES_EFFECTIVE_FROM,
      default_profile: false,
    });
    expect(createCostAccumulator(prices, { sourceFilter: 'codex' }).summary().pricing_mode).toBe('overlap');
    expect(createCostAccumulator(prices, { sourceFilter: 'claude' }).summary().pricing_mode).toBe('add');
  });

  // Speed is measured by bench:analytics, not here; this prints the figure and checks that the price
  // cache filled by the first pass changes nothing in the answer.
  it('prices a heavy user year the same on a cold and a warm price cache', () => {
    const rows: UsageRow[] = [];
    const start = Date.parse('2025-01-01T00:00:00Z');
    const models = ['gpt-5-codex', 'gpt-5.2-codex', 'claude-sonnet-4-5-20250929', 'claude-opus-4-1'];
    for (let d = 0; d < 365; d++) {
      for (let h = 0; h < 16; h++) {
        const model = models[h % 4] as string;
        rows.push(
          usage(
            new Date(start + d * 86_400_000 + h * 1_800_000).toISOString(),
            model.startsWith('gpt') ? 'codex' : 'claude',
            model,
            { input: 50_000n, cached: 30_000n, output: 4_000n, reasoning: 1_000n },
          ),
        );
      }
    }
    const cold = performance.now();
    const first = createCostAccumulator(prices);
    first.addAll(rows);
    const coldMs = performance.now() - cold;
    const t0 = performance.now();
    const reps = 20;
    let total = 0n;
    for (let i = 0; i < reps; i++) {
      const acc = createCostAccumulator(prices);
      acc.addAll(rows);
      total = acc.totalMicros();
    }
    const warmMs = (performance.now() - t0) / reps;
    console.info(
      `cost: ${rows.length} rows, first pass ${coldMs.toFixed(1)} ms (fills the price cache), then ${warmMs.toFixed(2)} ms; total ${formatMicros(total)} USD`,
    );
    expect(total).toBe(first.totalMicros());
    expect(total).toBeGreaterThan(0n);
  });
});
