import { describe, expect, it } from 'vitest';
import type { Bucket } from '../../src/domain/bucket.js';
import { parseZonedInstant } from '../../src/ingest/core/normalize.js';
import { planIngest } from '../../src/ingest/core/plan.js';

function bucket(partial: Partial<Bucket>): Bucket {
  return {
    hourStart: 0,
    source: 'codex',
    model: 'gpt-5',
    projectKey: '',
    projectRef: null,
    input: 0n,
    cached: 0n,
    output: 0n,
    reasoning: 0n,
    total: 0n,
    billable: 0n,
    ...partial,
  };
}

describe('parseZonedInstant', () => {
  it.each([
    ['2026-11-01T10:30:00Z', Date.UTC(2026, 10, 1, 10, 30)],
    ['2026-11-01T10:30:00.000Z', Date.UTC(2026, 10, 1, 10, 30)],
    ['2026-11-01T16:00:00+05:30', Date.UTC(2026, 10, 1, 10, 30)],
    ['2026-11-01T05:30:00-0500', Date.UTC(2026, 10, 1, 10, 30)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
  ])('reads %s', (text, expected) => expect(parseZonedInstant(text)).toBe(expected));

  it.each([
    '2026-11-01T10:30:00',
    '2026-11-01',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-01T24:00:00Z',
    'soon',
    '2026-11-01T10:30:00+25:00',
  ])('refuses %s', (text) => expect(parseZonedInstant(text)).toBeUndefined());
});

describe('planIngest', () => {
  it('counts new rows as inserted and adds them to the rollup', () => {
    const plan = planIngest([bucket({ total: 10n, billable: 10n })], []);
    expect(plan.counts).toEqual({ inserted: 1, skipped: 0, projectInserted: 0, projectSkipped: 0 });
    expect(plan.rollup).toEqual([expect.objectContaining({ total: 10n, billable: 10n })]);
  });

  it('skips identical rows and writes nothing for them', () => {
    const stored: Bucket = { ...bucket({ total: 10n, billable: 10n }) };
    const plan = planIngest([bucket({ total: 10n, billable: 10n })], [stored]);
    expect(plan.counts.skipped).toBe(1);
    expect(plan.upserts).toEqual([]);
    expect(plan.rollup).toEqual([]);
  });

  it('moves the rollup by the difference when a bucket grows or shrinks', () => {
    const stored: Bucket = { ...bucket({ total: 10n, billable: 8n }) };
    expect(planIngest([bucket({ total: 25n, billable: 20n })], [stored]).rollup[0]).toMatchObject({
      total: 15n,
      billable: 12n,
    });
    expect(planIngest([bucket({ total: 4n, billable: 3n })], [stored]).rollup[0]).toMatchObject({
      total: -6n,
      billable: -5n,
    });
  });

  it('removes project variants missing from the upload and nets them out of the rollup', () => {
    const stored: Bucket[] = [
      { ...bucket({ projectKey: 'a/b', total: 6n, billable: 6n }) },
      { ...bucket({ projectKey: 'c/d', total: 4n, billable: 4n }) },
    ];
    const plan = planIngest([bucket({ total: 10n, billable: 10n })], stored);
    expect(plan.deletes.map((d) => d.projectKey)).toEqual(['a/b', 'c/d']);
    expect(plan.rollup).toEqual([]); // same total, moved from projects to no project
    expect(plan.projects.map((p) => [p.projectKey, p.total])).toEqual([
      ['a/b', -6n],
      ['c/d', -4n],
    ]);
  });

  it('leaves groups the upload does not mention alone', () => {
    const other: Bucket = { ...bucket({ hourStart: 1_800_000, total: 5n }) };
    const plan = planIngest([bucket({ total: 1n })], [other]);
    expect(plan.deletes).toEqual([]);
  });

  it('plans a group of many project variants the same way (looked up through a map past a handful)', () => {
    // Twelve stored variants; the upload keeps ten (one unchanged, nine grown), drops two, adds three.
    const stored = Array.from({ length: 12 }, (_, i) =>
      bucket({ projectKey: `p${i}`, projectRef: `p${i}`, total: 10n, billable: 10n }),
    );
    const uploaded = [
      bucket({ projectKey: 'p0', projectRef: 'p0', total: 10n, billable: 10n }),
      ...Array.from({ length: 9 }, (_, i) =>
        bucket({ projectKey: `p${i + 1}`, projectRef: `p${i + 1}`, total: 15n, billable: 15n }),
      ),
      ...Array.from({ length: 3 }, (_, i) =>
        bucket({ projectKey: `new${i}`, projectRef: `new${i}`, total: 1n, billable: 1n }),
      ),
    ];
    const plan = planIngest(uploaded, stored);
    expect(plan.counts).toEqual({ inserted: 12, skipped: 1, projectInserted: 12, projectSkipped: 1 });
    expect(plan.deletes.map((d) => d.projectKey)).toEqual(['p10', 'p11']);
    // 9 × +5, 3 × +1, 2 × −10
    expect(plan.rollup).toEqual([expect.objectContaining({ total: 28n, billable: 28n })]);
    expect(plan.projects.find((p) => p.projectKey === 'p11')).toMatchObject({ total: -10n });
  });
});
