/**
 * @fileoverview The rows the ingest writers store, one type per table, shared by both engines'
 * write functions (ingest-sqlite.ts, ingest-postgres-writes.ts): each function takes these objects
 * and owns its statement and the order of its parameters, so no caller binds a statement by
 * position. What the rows hold is decided engine-free in src/ingest/core/.
 */
import type { FamilyDelta } from '../../domain/leaderboard-periods.js';
import type { TokenCounts } from '../../domain/token-counts.js';

/** A device's raw buckets of one UTC day, packed whole (`usage_device_days`, domain/device-day-buckets.ts). */
export interface DeviceDayRow {
  readonly deviceNum: bigint;
  readonly day: number;
  readonly packed: string;
  readonly now: number;
}

/*
 * The read-model rows come per user ({@link UserReadModels}): the rows themselves carry no user id,
 * so the engine-free deltas are the rows as they are, nothing copied on the writer's hot path.
 */

/** A change added to a `usage_rollup` row. */
export interface RollupRow extends TokenCounts {
  readonly hourStart: number;
  readonly source: string;
  readonly model: string;
}

/** A change added to a `project_usage` row (a null ref keeps the stored one). */
export interface ProjectRow extends TokenCounts {
  readonly projectKey: string;
  readonly source: string;
  readonly projectRef: string | null;
  readonly updatedAt: number;
}

/** A `usage_daily` row as it is after the upload, counts and cost (written whole). */
export interface DailyRow extends TokenCounts {
  readonly day: number;
  readonly source: string;
  readonly model: string;
  readonly costMicros: bigint;
}

/** A change of counts and stored cost added to a `usage_blocks` row (16 days, migration 0027). */
export interface BlockRow extends TokenCounts {
  readonly block: number;
  readonly source: string;
  readonly model: string;
  readonly costMicros: bigint;
}

/** A packed `usage_days` row as it is after the upload (written whole, domain/day-slots.ts). */
export interface DayRow {
  readonly day: number;
  readonly packed: string;
}

/** A change of billable tokens and stored cost per family added to a leaderboard week or month row. */
export interface PeriodRow extends FamilyDelta {
  readonly period: number;
}

/** Every read-model row of one user a group changes, its uploads' deltas merged (written once a group). */
export interface UserReadModels {
  readonly userId: string;
  /** The change to the user's count of stored raw buckets (`user_storage`, migration 0017); 0: none. */
  readonly storedRows: number;
  readonly rollup: readonly RollupRow[];
  readonly projects: readonly ProjectRow[];
  readonly daily: readonly DailyRow[];
  readonly blocks: readonly BlockRow[];
  readonly days: readonly DayRow[];
  readonly weeks: readonly PeriodRow[];
  readonly months: readonly PeriodRow[];
  /** The change to the all-time leaderboard row, or null when nothing moves. */
  readonly total: FamilyDelta | null;
}

/** A change added to a team's `team_usage_rollup` row (migration 0029): the sum of its uploading members' changes. */
export interface TeamRollupRow extends TokenCounts {
  readonly teamId: string;
  readonly hourStart: number;
  readonly source: string;
  readonly model: string;
}

/** A change added to a team's `team_usage_spans` row (migration 0030): its half-hours' changes summed. */
export interface TeamSpanRow extends TokenCounts {
  readonly teamId: string;
  readonly spanStart: number;
  readonly source: string;
  readonly model: string;
}

/** A change added to a team's `team_usage_daily` row: counts and stored cost (migration 0030). */
export interface TeamDailyRow extends TokenCounts {
  readonly teamId: string;
  readonly day: number;
  readonly source: string;
  readonly model: string;
  costMicros: bigint;
}

/** The team-side rows a group changes, summed over its users in each team (none when no user is in a team). */
export interface TeamReadModels {
  readonly rollup: readonly TeamRollupRow[];
  readonly spans: readonly TeamSpanRow[];
  readonly daily: readonly TeamDailyRow[];
}

/** Every read-model row a group changes: each user's, and their teams'. */
export interface GroupReadModels {
  readonly users: readonly UserReadModels[];
  readonly teams: TeamReadModels;
}

/** One stored upload: its `ingest_events` record, and its device's sync time (`devices`). */
export interface UploadRow {
  readonly deviceId: string;
  readonly userId: string;
  readonly bucketCount: number;
  readonly inserted: number;
  readonly skipped: number;
  readonly now: number;
}

/** One of a device's subscriptions, in the order uploaded (`device_subscriptions`). */
export interface SubscriptionRow {
  readonly deviceId: string;
  readonly userId: string;
  readonly position: number;
  readonly tool: string | null;
  readonly provider: string | null;
  readonly product: string | null;
  readonly planType: string | null;
  readonly rateLimitTier: string | null;
  readonly details: string;
  readonly now: number;
}
