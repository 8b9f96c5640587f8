import { describe, expect, it } from 'vitest';
import {
  groupModels,
  keyColour,
  modelBase,
  modelName,
  sourceName,
  type WireTotals,
} from '../../src/domain/model-names.js';

const t = (billable: number | string, cost: string): WireTotals => ({
  total_tokens: String(billable),
  billable_total_tokens: String(billable),
  input_tokens: String(billable),
  cached_input_tokens: '0',
  output_tokens: '0',
  reasoning_output_tokens: '0',
  total_cost_usd: cost,
});

describe('model and source names', () => {
  it('names sources as their makers write them', () => {
    expect(sourceName('opencode')).toBe('OpenCode');
    expect(sourceName('claude')).toBe('Claude Code');
    expect(sourceName('my-tool')).toBe('My Tool');
  });

  it('names every vendor by one rule, without the date or the provider prefix', () => {
    expect(modelName('claude-sonnet-4-5-20250929')).toBe('Claude Sonnet 4.5');
    expect(modelName('claude-sonnet-4-5')).toBe('Claude Sonnet 4.5');
    expect(modelName('claude-3-5-haiku-20241022')).toBe('Claude 3.5 Haiku');
    expect(modelName('anthropic/claude-opus-4-1')).toBe('Claude Opus 4.1');
    expect(modelName('gpt-5.2-codex')).toBe('GPT-5.2 Codex');
    expect(modelName('gpt-5')).toBe('GPT-5');
    expect(modelName('gpt-4o-mini-2024-07-18')).toBe('GPT-4o Mini');
    expect(modelName('gemini-2.5-pro')).toBe('Gemini 2.5 Pro');
    expect(modelName('o3-mini')).toBe('o3 Mini');
    expect(modelName('unknown')).toBe('Unknown');
  });

  it('splits a release date off an id, and only a plausible one', () => {
    expect(modelBase('claude-sonnet-4-5-20250929')).toEqual({ base: 'claude-sonnet-4-5', date: '2025-09-29' });
    expect(modelBase('gpt-4o-2024-08-06')).toEqual({ base: 'gpt-4o', date: '2024-08-06' });
    expect(modelBase('gpt-5')).toEqual({ base: 'gpt-5', date: null });
    expect(modelBase('model-12345678')).toEqual({ base: 'model-12345678', date: null });
  });

  it('gives a key one colour everywhere, grey for "other"', () => {
    expect(keyColour('claude', 'source')).toBe(keyColour('claude', 'source'));
    expect(keyColour('claude', 'source')).not.toBe(keyColour('codex', 'source'));
    expect(keyColour('other', 'model')).toBe('#94a3b8');
    expect(keyColour('GPT-5', 'model')).toBe(keyColour('gpt-5', 'model'));
  });

  it('groups dated ids with their undated sibling, sums exactly, largest first', () => {
    const grouped = groupModels([
      { model_id: 'gpt-5', totals: t(10, '0.100000') },
      { model_id: 'claude-sonnet-4-5-20250929', totals: t('9007199254740993', '1.250001') },
      { model_id: 'claude-sonnet-4-5', totals: t(7, '0.000002'), priced_as: null },
    ]);
    expect(grouped.map((g) => g.name)).toEqual(['Claude Sonnet 4.5', 'GPT-5']);
    const claude = grouped[0];
    expect(claude?.totals.total_cost_usd).toBe('1.250003');
    expect(claude?.totals.billable_total_tokens).toBe('9007199254741000'); // exact past 2^53
    expect(claude?.variants.map((v) => [v.model_id, v.date])).toEqual([
      ['claude-sonnet-4-5-20250929', '2025-09-29'],
      ['claude-sonnet-4-5', null],
    ]);
  });
});
