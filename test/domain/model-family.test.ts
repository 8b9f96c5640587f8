import { describe, expect, it } from 'vitest';
import { MODEL_FAMILY_LIKE_PATTERNS, modelFamily } from '../../src/domain/model-family.js';

const likeToRegExp = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
      .replace(/%/g, '.*')
      .replace(/_/g, '.')}$`,
  );

describe('modelFamily', () => {
  const cases: [string, 'gpt' | 'claude' | 'other'][] = [
    ['gpt-5-codex', 'gpt'],
    ['gpt-4o', 'gpt'],
    ['GPT-4.1', 'gpt'],
    ['o1', 'gpt'],
    ['o1-preview', 'gpt'],
    ['o3-mini', 'gpt'],
    ['o4-mini', 'gpt'],
    ['openai/gpt-oss-120b', 'gpt'],
    ['claude-sonnet-4-5-20250929', 'claude'],
    ['anthropic/claude-opus-4', 'claude'],
    ['gemini-2.5-pro', 'other'],
    ['unknown', 'other'],
    ['o5-preview', 'other'],
    ['gpt4', 'other'],
    ['claude', 'other'],
    ['opus', 'other'],
    ['aws/gpt-4o', 'other'],
  ];
  it.each(cases)('%s → %s', (model, family) => {
    expect(modelFamily(model)).toBe(family);
  });

  it('agrees with the SQL LIKE patterns', () => {
    for (const [model, family] of cases) {
      const lower = model.toLowerCase();
      const gpt = MODEL_FAMILY_LIKE_PATTERNS.gpt.some((p) => likeToRegExp(p).test(lower));
      const claude = MODEL_FAMILY_LIKE_PATTERNS.claude.some((p) => likeToRegExp(p).test(lower));
      expect(gpt ? 'gpt' : claude ? 'claude' : 'other').toBe(family);
    }
  });
});
