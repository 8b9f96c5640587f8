/** @fileoverview The leaderboard's tables (per-period family sums and costs, snapshots, runs, the refresh lease), as Kysely sees them; part of schema.ts's `Database`. */
import type { Int, NullableInt, DefaultedInt } from './schema.js';

/** Billable tokens of a user per model family in one ISO week / calendar month / all time (kept by the ingest writers). */
export interface LeaderboardFamilyColumns {
  user_id: string;
  gpt: Int;
  claude: Int;
  other: Int;
  /** Stored costs (micro-dollars) per family (migration 0028). */
  gpt_cost: DefaultedInt;
  claude_cost: DefaultedInt;
  other_cost: DefaultedInt;
}

export interface LeaderboardUserWeeksTable extends LeaderboardFamilyColumns {
  /** floor((epoch day + 3) / 7): ISO weeks counted from the Monday 1969-12-29. */
  week: Int;
}

export interface LeaderboardUserMonthsTable extends LeaderboardFamilyColumns {
  /** year * 12 + (month − 1). */
  month: Int;
}

/** A finished leaderboard refresh: what it switched and its answer (JSON), for waiting callers. */
export interface LeaderboardRunsTable {
  id: Int;
  periods: string;
  result: string;
  finished_at: Int;
}

/** One snapshot of one period; readers only see it once `leaderboard_current` points at it. */
export interface LeaderboardGenerationsTable {
  id: Int;
  period: string;
  from_day: string;
  to_day: string;
  generated_at: Int;
  count_all: Int;
  count_gpt: Int;
  count_claude: Int;
  count_other: Int;
}

/** Who refreshes the leaderboard on SQLite, until when (at most one row, id 1). */
export interface LeaderboardRefreshLeaseTable {
  id: number;
  holder: string;
  expires_at: Int;
}

export interface LeaderboardCurrentTable {
  period: string;
  generation: Int;
}

/** A place on one metric's board in one generation (pages are range reads on the key). */
export interface LeaderboardEntriesTable {
  generation: Int;
  metric: string;
  pos: Int;
  user_id: string;
  rank: Int;
}

/** A ranked user in one generation: billable tokens per family and the dense rank per metric (null without usage in it). */
export interface LeaderboardMembersTable {
  generation: Int;
  user_id: string;
  total: Int;
  gpt: Int;
  claude: Int;
  other: Int;
  rank_all: NullableInt;
  rank_gpt: NullableInt;
  rank_claude: NullableInt;
  rank_other: NullableInt;
  /** Costs in micro-dollars (migration 0028). */
  total_cost: DefaultedInt;
  gpt_cost: DefaultedInt;
  claude_cost: DefaultedInt;
  other_cost: DefaultedInt;
}
