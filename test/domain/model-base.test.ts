import { describe, expect, it } from 'vitest';
import { modelBase } from '../../src/domain/model-names.js';

/** The id a model is shown under: its base, without a release date (the CLI's report and the dashboard). */
const undatedModel = (id: string): string => modelBase(id).base;

describe('modelBase', () => {
  it('folds a release-dated id into its undated sibling', () => {
    expect(undatedModel('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(undatedModel('claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
    expect(undatedModel('claude-opus-4-1@20250805')).toBe('claude-opus-4-1');
    expect(undatedModel('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(undatedModel('claude-3-5-haiku-20241022')).toBe('claude-3-5-haiku');
  });

  it('keeps versions, tags and anything that is not a date', () => {
    for (const id of [
      'gpt-5.1',
      'gpt-5-codex',
      'o3-mini',
      'gemini-2.5-pro',
      'model-latest',
      'x-20251399',
      'unknown',
      'foo-12345678',
      '20250929',
    ])
      expect(undatedModel(id)).toBe(id);
  });
});
