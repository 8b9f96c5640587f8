/** @fileoverview The team tables, as Kysely sees them (migrations 0021, 0029, 0030; re-exported by db/schema.ts). */
import type { ColumnType } from 'kysely';
import type { Int, NullableInt, TokenColumns } from './schema.js';

export type TeamRole = 'owner' | 'admin' | 'member';

export interface TeamsTable {
  id: string;
  name: string;
  /** Unique, URL-safe; kept when the team is renamed. */
  slug: string;
  created_at: Int;
  updated_at: Int;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  role: TeamRole;
  joined_at: Int;
}

/** Invite links, by the SHA-256 of their token. */
export interface TeamInvitesTable {
  id: string;
  team_id: string;
  token_hash: string;
  role: TeamRole;
  /** The one e-mail address the invite works for (lower case); null: any signed-in user. */
  email: string | null;
  max_uses: Int;
  uses: ColumnType<bigint, bigint | number | undefined, bigint | number>;
  created_at: Int;
  expires_at: Int;
  revoked_at: NullableInt;
}

/**
 * The team-side read model (migration 0029): the six counts of the team's current members'
 * `usage_rollup` rows, summed per (team, half-hour, source, model). Kept with every change of a
 * member's usage or of the membership, in its transaction (db/queries/team-usage-model.ts).
 */
export interface TeamUsageRollupTable extends TokenColumns {
  team_id: string;
  hour_start: Int;
  source: string;
  model: string;
}

/** The team's half-hours summed per 4-hour span of a UTC day (migration 0030; `span_start` is the span's first instant). */
export interface TeamUsageSpansTable extends TokenColumns {
  team_id: string;
  span_start: Int;
  source: string;
  model: string;
}

/** The same over the members' `usage_daily` rows, per (team, UTC epoch day, source, model), with their stored costs. */
export interface TeamUsageDailyTable extends TokenColumns {
  team_id: string;
  day: Int;
  source: string;
  model: string;
  /** The members' stored costs summed, micro-dollars (migration 0030). */
  cost_micros: ColumnType<bigint, bigint | number | undefined, bigint | number>;
}
