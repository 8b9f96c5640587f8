/**
 * @fileoverview The heart of ingest, pure: given the buckets of an upload and what is stored for
 * the (device, hour_start, source, model) groups it mentions, decide which rows to write and delete,
 * how the read models change, and what to count as inserted or skipped.
 *
 * Clients send cumulative totals. An upload replaces, for every group it mentions, the whole set of
 * project variants: variants missing from the upload are removed, so switching project attribution
 * on or off never double counts.
 */
import type { Bucket } from '../../domain/bucket.js';
import { addCounts as add, isZeroCounts as isZero, zeroCounts, type TokenCounts } from '../../domain/token-counts.js';
import { ByProject } from './by-project.js';
import { GroupIndex, type GroupKey } from './group-index.js';

export interface RollupDelta extends TokenCounts {
  hourStart: number;
  source: string;
  model: string;
}

export interface ProjectDelta extends TokenCounts {
  projectKey: string;
  source: string;
  projectRef: string | null;
}

export interface IngestPlan {
  upserts: Bucket[];
  deletes: Bucket[];
  rollup: RollupDelta[];
  projects: ProjectDelta[];
  counts: { inserted: number; skipped: number; projectInserted: number; projectSkipped: number };
  /**
   * Half-hours where the upload leaves more stored rows than there were (rows added minus rows
   * removed, when positive), by hour_start; undefined when it adds none anywhere.
   */
  growth: Map<number, number> | undefined;
  /** The upload's change to the device's stored rows over all its half-hours: rows added minus rows removed. */
  rows: number;
}

/** The distinct groups an upload touches, in first-seen order. */
export function groupsOf(buckets: readonly Bucket[]): GroupKey[] {
  const seen = new GroupIndex<GroupKey>();
  for (const b of buckets)
    if (seen.get(b) === undefined) seen.add(b, { hourStart: b.hourStart, source: b.source, model: b.model });
  return [...seen.values()];
}

function sameRow(a: Bucket, b: Bucket): boolean {
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

/** Lists `items` by group, groups in first-seen order. */
function byGroup<T extends GroupKey>(items: readonly T[]): GroupIndex<T[]> {
  const groups = new GroupIndex<T[]>();
  for (const item of items) {
    const list = groups.get(item);
    if (list === undefined) groups.add(item, [item]);
    else list.push(item);
  }
  return groups;
}

/**
 * Plans an upload against the stored variants of the groups it mentions (`stored` may hold other
 * groups too: they are left alone). Runs for every upload:
 * arrays and plain objects rather than a map or set per group (allocation is most of its time).
 */
export function planIngest(buckets: readonly Bucket[], stored: readonly Bucket[]): IngestPlan {
  const storedByGroup = byGroup(stored);
  const plan: IngestPlan = {
    upserts: [],
    deletes: [],
    rollup: [],
    projects: [],
    counts: { inserted: 0, skipped: 0, projectInserted: 0, projectSkipped: 0 },
    growth: undefined,
    rows: 0,
  };
  const projects = new Map<string, ProjectDelta>();
  const projectDelta = (projectKey: string, source: string, projectRef: string | null): ProjectDelta => {
    const key = `${projectKey}\u0000${source}`;
    let delta = projects.get(key);
    if (!delta)
      projects.set(
        key,
        (delta = {
          projectKey,
          source,
          projectRef,
          ...zeroCounts(),
        }),
      );
    if (projectRef !== null) delta.projectRef = projectRef;
    return delta;
  };

  for (const uploaded of byGroup(buckets).values()) {
    const first = uploaded[0] as Bucket;
    const storedList = storedByGroup.get(first) ?? [];
    const before = new ByProject(storedList);
    const delta: RollupDelta = {
      hourStart: first.hourStart,
      source: first.source,
      model: first.model,
      ...zeroCounts(),
    };
    let rows = 0; // stored rows of this group after the upload, minus before
    for (const bucket of uploaded) {
      const old = before.find(bucket.projectKey);
      if (old === undefined) rows += 1;
      const hasProject = bucket.projectKey !== '';
      if (old !== undefined && sameRow(old, bucket)) {
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
    // Variants the upload no longer mentions are removed.
    const now = storedList.length === 0 ? undefined : new ByProject(uploaded);
    for (const old of storedList) {
      if (now?.find(old.projectKey) !== undefined) continue;
      rows -= 1;
      plan.deletes.push(old);
      add(delta, old, -1n);
      if (old.projectKey !== '') add(projectDelta(old.projectKey, old.source, null), old, -1n);
    }
    if (!isZero(delta)) plan.rollup.push(delta);
    if (rows !== 0) {
      plan.rows += rows;
      plan.growth ??= new Map();
      plan.growth.set(first.hourStart, (plan.growth.get(first.hourStart) ?? 0) + rows);
    }
  }
  if (plan.growth) for (const [hour, n] of plan.growth) if (n <= 0) plan.growth.delete(hour);
  if (plan.growth?.size === 0) plan.growth = undefined;
  for (const p of projects.values()) if (!isZero(p) || p.projectRef !== null) plan.projects.push(p);
  return plan;
}
