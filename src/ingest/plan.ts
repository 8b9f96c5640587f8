/**
 * @fileoverview The heart of ingest, pure: given the buckets of an upload and what is stored for
 * the (device, hour_start, source, model) groups it mentions, decide which rows to write and delete,
 * how the read models change, and what to count as inserted or skipped.
 *
 * Clients send cumulative totals. An upload replaces, for every group it mentions, the whole set of
 * project variants: variants missing from the upload are removed, so switching project attribution
 * on or off never double counts.
 */
import { addSums as add, isZeroSums as isZero, zeroSums, type TokenSums } from '../domain/token-sums.js';
import type { NormalizedBucket } from './normalize.js';

/** A stored bucket has the same shape as an uploaded one. */
export type StoredVariant = NormalizedBucket;

export type Delta = TokenSums;

export interface RollupDelta extends Delta {
  hourStart: number;
  source: string;
  model: string;
}

export interface ProjectDelta extends Delta {
  projectKey: string;
  source: string;
  projectRef: string | null;
}

export interface IngestPlan {
  upserts: NormalizedBucket[];
  deletes: StoredVariant[];
  rollup: RollupDelta[];
  projects: ProjectDelta[];
  counts: { inserted: number; skipped: number; projectInserted: number; projectSkipped: number };
}

export interface GroupKey {
  hourStart: number;
  source: string;
  model: string;
}

export function groupKeyOf(b: GroupKey): string {
  return `${b.hourStart}\u0000${b.source}\u0000${b.model}`;
}

/** The distinct groups an upload touches, in first-seen order. */
export function groupsOf(buckets: readonly NormalizedBucket[]): GroupKey[] {
  const seen = new Map<string, GroupKey>();
  for (const b of buckets) {
    const key = groupKeyOf(b);
    if (!seen.has(key)) seen.set(key, { hourStart: b.hourStart, source: b.source, model: b.model });
  }
  return [...seen.values()];
}

function sameRow(a: StoredVariant, b: NormalizedBucket): boolean {
  return (
    a.input === b.input &&
    a.cached === b.cached &&
    a.output === b.output &&
    a.reasoning === b.reasoning &&
    a.total === b.total &&
    a.billable === b.billable &&
    (a.projectRef ?? null) === (b.projectRef ?? null)
  );
}

/** Plans an upload against the stored variants of the groups it mentions. */
export function planIngest(buckets: readonly NormalizedBucket[], stored: readonly StoredVariant[]): IngestPlan {
  const storedByGroup = new Map<string, Map<string, StoredVariant>>();
  for (const row of stored) {
    const key = groupKeyOf(row);
    let variants = storedByGroup.get(key);
    if (!variants) storedByGroup.set(key, (variants = new Map()));
    variants.set(row.projectKey, row);
  }

  const plan: IngestPlan = {
    upserts: [],
    deletes: [],
    rollup: [],
    projects: [],
    counts: { inserted: 0, skipped: 0, projectInserted: 0, projectSkipped: 0 },
  };
  const rollup = new Map<string, RollupDelta>();
  const projects = new Map<string, ProjectDelta>();
  const projectDelta = (projectKey: string, source: string, projectRef: string | null): ProjectDelta => {
    const key = `${projectKey}\u0000${source}`;
    let delta = projects.get(key);
    if (!delta) projects.set(key, (delta = { projectKey, source, projectRef, ...zeroSums() }));
    if (projectRef !== null) delta.projectRef = projectRef;
    return delta;
  };

  const uploadedByGroup = new Map<string, NormalizedBucket[]>();
  for (const bucket of buckets) {
    const key = groupKeyOf(bucket);
    let list = uploadedByGroup.get(key);
    if (!list) uploadedByGroup.set(key, (list = []));
    list.push(bucket);
  }

  for (const [key, uploaded] of uploadedByGroup) {
    const first = uploaded[0];
    if (!first) continue;
    const before = storedByGroup.get(key) ?? new Map<string, StoredVariant>();
    const delta: RollupDelta = { hourStart: first.hourStart, source: first.source, model: first.model, ...zeroSums() };
    const kept = new Set<string>();
    for (const bucket of uploaded) {
      kept.add(bucket.projectKey);
      const old = before.get(bucket.projectKey);
      const unchanged = old !== undefined && sameRow(old, bucket);
      const hasProject = bucket.projectKey !== '';
      if (unchanged) {
        plan.counts.skipped += 1;
        if (hasProject) plan.counts.projectSkipped += 1;
        continue;
      }
      plan.counts.inserted += 1;
      if (hasProject) plan.counts.projectInserted += 1;
      plan.upserts.push(bucket);
      add(delta, bucket, 1n);
      if (old) add(delta, old, -1n);
      if (hasProject) {
        const p = projectDelta(bucket.projectKey, bucket.source, bucket.projectRef);
        add(p, bucket, 1n);
        if (old) add(p, old, -1n);
      }
    }
    for (const [projectKey, old] of before) {
      if (kept.has(projectKey)) continue;
      plan.deletes.push(old);
      add(delta, old, -1n);
      if (projectKey !== '') add(projectDelta(projectKey, old.source, null), old, -1n);
    }
    if (!isZero(delta)) rollup.set(key, delta);
  }
  plan.rollup = [...rollup.values()];
  plan.projects = [...projects.values()].filter((p) => !isZero(p) || p.projectRef !== null);
  return plan;
}
