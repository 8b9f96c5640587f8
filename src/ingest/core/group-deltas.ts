/**
 * @fileoverview Pure: the read-model deltas of a group of uploads, merged per user. A group commit
 * (sqlite/writer.ts) stores each upload's own rows first, then moves every user's additive read
 * models once for all of that user's uploads in the group instead of once per upload: with several
 * devices of one user uploading the same half-hours, most of an upload's writes are these shared rows.
 *
 * Merging is exact because every merged table is additive (`usage_rollup`, `project_usage`, the
 * day prefix and the leaderboard totals add deltas; a `usage_daily` row is re-read and repriced as
 * a whole). Uploads keep their order: a project's reference is the last non-null one and its
 * `updated_at` the last contributing upload's time, as if the uploads had been applied one by one.
 * The user's count of stored raw buckets (`user_storage`) is additive too: the uploads' row changes summed.
 */
import { addCounts } from '../../domain/token-counts.js';
import { GroupIndex } from './group-index.js';
import type { ProjectDelta, RollupDelta } from './plan.js';

/** What one stored upload changes in its user's read models. */
export interface UploadDeltas {
  readonly userId: string;
  readonly now: number;
  readonly rollup: RollupDelta[];
  readonly projects: ProjectDelta[];
  /** The upload's change to the user's stored raw buckets (plan.ts `rows`). */
  readonly rows: number;
}

export interface DatedProjectDelta extends ProjectDelta {
  /** The time of the last upload that moved this project row. */
  updatedAt: number;
}

/** One user's merged read-model deltas. */
export interface UserDeltas {
  readonly userId: string;
  /** Every rollup key any upload touched, summed (a key whose deltas cancel is kept: its row is written as it would have been). */
  readonly rollup: RollupDelta[];
  readonly projects: DatedProjectDelta[];
  /** The change to the user's stored raw buckets, summed over the uploads. */
  readonly rows: number;
}

/**
 * Merges the deltas of a group's stored uploads per user, users in first-seen order. Takes
 * ownership of the uploads' delta objects (a user's first delta for a key is summed into in place).
 */
export function mergeUploadDeltas(uploads: readonly UploadDeltas[]): UserDeltas[] {
  const byUser = new Map<
    string,
    { rollup: GroupIndex<RollupDelta>; projects: Map<string, DatedProjectDelta>; rows: number }
  >();
  for (const upload of uploads) {
    let user = byUser.get(upload.userId);
    if (user === undefined)
      byUser.set(upload.userId, (user = { rollup: new GroupIndex(), projects: new Map(), rows: 0 }));
    user.rows += upload.rows;
    for (const r of upload.rollup) {
      const merged = user.rollup.get(r);
      if (merged === undefined) user.rollup.add(r, r);
      else addCounts(merged, r);
    }
    for (const p of upload.projects) {
      const key = `${p.projectKey}\u0000${p.source}`;
      const merged = user.projects.get(key);
      if (merged === undefined) {
        user.projects.set(key, Object.assign(p, { updatedAt: upload.now }));
        continue;
      }
      addCounts(merged, p);
      if (p.projectRef !== null) merged.projectRef = p.projectRef;
      merged.updatedAt = upload.now;
    }
  }
  return [...byUser].map(([userId, user]) => ({
    userId,
    rollup: [...user.rollup.values()],
    projects: [...user.projects.values()],
    rows: user.rows,
  }));
}
