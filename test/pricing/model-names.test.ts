/**
 * Every model keeps its own name: the model names agents write today, and which of them are
 * spellings of one model (docs/pricing.md, "Model identity").
 */
import { describe, expect, it } from 'vitest';
import { createPriceService } from '../../src/pricing/index.js';
import { ownModelId, sameModel } from '../../src/pricing/model-names.js';

const prices = createPriceService();

/** Distinct models as Codex, Claude Code, Gemini CLI, Qwen Code, Kimi and OpenCode write them: no two may share an id. */
const DISTINCT = [
  'gpt-5',
  'gpt-5-codex',
  'gpt-5-mini',
  'gpt-5.1',
  'gpt-5.1-codex',
  'gpt-5.1-codex-max',
  'gpt-5.1-codex-mini',
  'gpt-5.2',
  'gpt-5.2-codex',
  'gpt-5.3-codex',
  'claude-sonnet-4-5-20250929',
  'claude-opus-4-5-20251101',
  'claude-haiku-4-5-20251001',
  'claude-opus-4-1-20250805',
  'claude-sonnet-4-20250514',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-3-pro-preview',
  'gemini-3-flash-preview',
  'qwen3-coder-plus',
  'qwen3-coder-flash',
  'qwen3-coder-480b-a35b-instruct',
  'kimi-k2-0905-preview',
  'kimi-k2-thinking',
  'kimi-k2-turbo-preview',
  'opencode/grok-code',
];

describe('model identity', () => {
  it('never gives two models one id', () => {
    const ids = DISTINCT.map((m) => prices.identify(m).model_id);
    expect(new Set(ids).size).toBe(DISTINCT.length);
  });

  it('keeps Codex models apart from the model that prices them, and says priced_as', () => {
    expect(prices.identify('gpt-5.2-codex')).toMatchObject({
      model_id: 'gpt-5.2-codex',
      priced_as: 'gpt-5.2',
      known: true,
    });
    expect(prices.identify('gpt-5.1-codex-max')).toMatchObject({ model_id: 'gpt-5.1-codex-max', priced_as: 'gpt-5.1' });
    expect(prices.identify('gpt-5.1-codex')).toMatchObject({ model_id: 'gpt-5.1-codex', priced_as: 'gpt-5.1' });
    expect(prices.identify('gpt-5-codex')).toMatchObject({ model_id: 'gpt-5-codex', priced_as: 'gpt-5' });
    expect(prices.identify('gpt-5.1-codex-mini')).toMatchObject({ model_id: 'gpt-5.1-codex-mini', priced_as: null });
    expect(prices.identify('gpt-5.2')).toMatchObject({ model_id: 'gpt-5.2', priced_as: null });
    // Priced exactly as its match.
    expect(prices.priceOnDate('gpt-5.2-codex', '2026-11-01').rates).toEqual(
      prices.priceOnDate('gpt-5.2', '2026-11-01').rates,
    );
    expect(prices.priceOnDate('gpt-5.2-codex', '2026-11-01')).toMatchObject({
      modelId: 'gpt-5.2-codex',
      pricedAs: 'gpt-5.2',
      isDefault: false,
    });
  });

  it('merges spellings of one model: provider prefix, date suffix, case, @ . - variants', () => {
    const sonnet = [
      'claude-sonnet-4-5-20250929',
      'claude-sonnet-4-5',
      'Claude-Sonnet-4.5',
      'anthropic/claude-sonnet-4-5',
      'claude-sonnet-4-5@20250929',
      'anthropic/claude-sonnet-4.5',
    ];
    for (const m of sonnet)
      expect(prices.identify(m), m).toMatchObject({
        model_id: 'claude-sonnet-4-5',
        model: 'Claude Sonnet 4.5',
        priced_as: null,
      });
    expect(prices.identify('claude-opus-4-5-20251101').model_id).toBe('claude-opus-4-5');
    expect(prices.identify('claude-haiku-4-5-20251001').model_id).toBe('claude-haiku-4-5');
    expect(prices.identify('claude-sonnet-4-20250514').model_id).toBe(prices.identify('claude-sonnet-4').model_id);
    for (const m of ['gpt-5', 'gpt-5-2025-08-07', 'openai/gpt-5', 'GPT-5'])
      expect(prices.identify(m).model_id, m).toBe('gpt-5');
    expect(prices.identify('openai/gpt-5.2-codex')).toMatchObject({ model_id: 'gpt-5.2-codex', priced_as: 'gpt-5.2' });
    expect(prices.identify('gemini-2.5-flash-latest').model_id).toBe('gemini-2.5-flash');
  });

  it('gives Gemini, Qwen, Kimi and OpenCode names their own ids', () => {
    for (const m of [
      'gemini-2.5-pro',
      'gemini-2.5-flash',
      'gemini-3-pro-preview',
      'kimi-k2-thinking',
      'kimi-k2-0905-preview',
    ]) {
      expect(prices.identify(m), m).toMatchObject({ model_id: m, known: true, priced_as: null });
    }
    // A dated preview is another model than the preview it starts with.
    expect(prices.identify('gemini-3-pro-preview-11-2025')).toMatchObject({
      model_id: 'gemini-3-pro-preview-11-2025',
      priced_as: 'gemini-3-pro-preview',
    });
    expect(prices.identify('qwen3-coder-plus')).toMatchObject({
      model_id: 'qwen3-coder-plus',
      known: false,
      priced_as: null,
    });
    expect(prices.identify('opencode/grok-code')).toMatchObject({ model_id: 'grok-code', known: false });
  });

  it('spelling rules', () => {
    expect(ownModelId(' OpenAI/GPT-5.2-Codex ')).toBe('gpt-5.2-codex');
    expect(ownModelId('claude-sonnet-4-5@20250929')).toBe('claude-sonnet-4-5');
    expect(ownModelId('gpt-5-2025-08-07')).toBe('gpt-5');
    expect(sameModel('claude-sonnet-4.5', 'claude-sonnet-4-5')).toBe(true);
    expect(sameModel('claude-sonnet-4-0', 'claude-sonnet-4')).toBe(true);
    expect(sameModel('gpt-5.2-codex', 'gpt-5.2')).toBe(false);
    expect(sameModel('gpt-5-mini', 'gpt-5')).toBe(false);
  });
});
