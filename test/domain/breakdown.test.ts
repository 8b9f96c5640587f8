import { describe, expect, it } from 'vitest';
import { groupBySourceAndModel } from '../../src/domain/breakdown.js';
import { row } from './helpers.js';

const identify = (raw: string) =>
  raw === 'gpt-5-2025-08-07' || raw === 'gpt-5'
    ? { model_id: 'gpt-5', model: 'GPT-5', priced_as: null }
    : { model_id: raw, model: raw, priced_as: null };

describe('groupBySourceAndModel', () => {
  it('sorts sources by name and models by billable, merging aliases', () => {
    const rows = [
      row('2026-01-01T00:00:00Z', 5n, 'opencode', 'zeta'),
      row('2026-01-01T00:00:00Z', 10n, 'codex', 'gpt-5-2025-08-07'),
      row('2026-01-01T00:30:00Z', 15n, 'codex', 'gpt-5'),
      row('2026-01-01T00:30:00Z', 30n, 'codex', 'o3'),
      row('2026-01-01T01:00:00Z', 5n, 'opencode', 'alpha'),
    ];
    const groups = groupBySourceAndModel(rows, identify);
    expect(groups.map((g) => g.source)).toEqual(['codex', 'opencode']);
    const codex = groups[0];
    expect(codex?.totals.billable).toBe(55n);
    expect(codex?.models.map((m) => [m.model_id, m.model, m.totals.billable, m.rows.length])).toEqual([
      ['o3', 'o3', 30n, 1],
      ['gpt-5', 'GPT-5', 25n, 2],
    ]);
    expect(groups[1]?.models.map((m) => m.model_id)).toEqual(['alpha', 'zeta']); // tie → by id
    expect(groupBySourceAndModel([], identify)).toEqual([]);
  });
});
