/** Merging a group's read-model deltas per user: the same end state as applying the uploads one by one. */
import { describe, expect, it } from 'vitest';
import { mergeUploadDeltas, type UploadDeltas } from '../../src/ingest/core/group-deltas.js';
import type { ProjectDelta, RollupDelta } from '../../src/ingest/core/plan.js';

const H = Date.UTC(2026, 10, 1, 10);
const sums = (n: bigint) => ({ input: n, cached: 0n, output: 0n, reasoning: 0n, total: n, billable: n });
const rollup = (model: string, n: bigint, hourStart = H): RollupDelta => ({
  hourStart,
  source: 'codex',
  model,
  ...sums(n),
});
const project = (key: string, ref: string | null, n: bigint): ProjectDelta => ({
  projectKey: key,
  source: 'codex',
  projectRef: ref,
  ...sums(n),
});
const upload = (userId: string, now: number, r: RollupDelta[], p: ProjectDelta[] = []): UploadDeltas => ({
  userId,
  now,
  rollup: r,
  projects: p,
  rows: 0,
});

describe('mergeUploadDeltas', () => {
  it("sums each user's rollup keys and keeps keys whose deltas cancel (their rows are written as one by one would)", () => {
    const merged = mergeUploadDeltas([
      upload('u1', 1, [rollup('gpt-5', 5n), rollup('o3', 2n)]),
      upload('u2', 2, [rollup('gpt-5', 7n)]),
      upload('u1', 3, [rollup('gpt-5', -5n), rollup('o3', 1n, H + 1_800_000)]),
    ]);
    expect(merged.map((u) => u.userId)).toEqual(['u1', 'u2']);
    const u1 = merged[0]!;
    expect(u1.rollup.map((r) => [r.model, r.hourStart, r.total])).toEqual([
      ['gpt-5', H, 0n],
      ['o3', H, 2n],
      ['o3', H + 1_800_000, 1n],
    ]);
    expect(merged[1]!.rollup.map((r) => r.total)).toEqual([7n]);
  });

  it("keeps the last non-null project reference and the last contributing upload's time", () => {
    const [u1] = mergeUploadDeltas([
      upload('u1', 10, [], [project('acme/api', 'gitlab.com/acme/api', 3n)]),
      upload('u1', 20, [], [project('acme/api', 'github.com/acme/api', 4n)]),
      upload('u1', 30, [], [project('acme/api', null, 2n), project('acme/web', null, 1n)]),
    ]);
    expect(u1!.projects.map((p) => [p.projectKey, p.projectRef, p.total, p.updatedAt])).toEqual([
      ['acme/api', 'github.com/acme/api', 9n, 30],
      ['acme/web', null, 1n, 30],
    ]);
  });
});
