import { describe, expect, it } from 'vitest';
import { GroupIndex } from '../../src/ingest/core/group-index.js';

const g = (hourStart: number, source: string, model: string) => ({ hourStart, source, model });

describe('GroupIndex', () => {
  it('finds a group by all three parts, keeps the first value of a group, and lists groups in first-insertion order', () => {
    const index = new GroupIndex<string>();
    index.add(g(1, 'codex', 'gpt-5'), 'a');
    index.add(g(1, 'claude', 'gpt-5'), 'b'); // same hour, other source
    index.add(g(1, 'codex', 'o3'), 'c'); // same hour and source, other model
    index.add(g(0, 'codex', 'gpt-5'), 'd');
    index.add(g(1, 'codex', 'gpt-5'), 'e'); // already there: ignored
    expect(index.values()).toEqual(['a', 'b', 'c', 'd']);
    expect([
      index.get(g(1, 'codex', 'gpt-5')),
      index.get(g(1, 'claude', 'gpt-5')),
      index.get(g(1, 'codex', 'o3')),
      index.get(g(0, 'codex', 'gpt-5')),
    ]).toEqual(['a', 'b', 'c', 'd']);
    expect([
      index.get(g(2, 'codex', 'gpt-5')),
      index.get(g(1, 'claude', 'o3')),
      index.get(g(0, 'codex', 'o3')),
    ]).toEqual([undefined, undefined, undefined]);
  });
});
