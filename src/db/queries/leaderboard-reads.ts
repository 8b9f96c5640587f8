/**
 * @fileoverview Reads of leaderboard snapshots: the current generation of a period, a page, one
 * user's row, and the public identities joined at read time (never stored in a snapshot).
 */
import type { Queryable } from '../connect.js';

import type { FamilyCosts, Metric, Period } from '../../domain/leaderboard-ranking.js';
import type { Db } from '../connect.js';
import { rawRows } from '../raw-rows.js';

export interface GenerationRow {
  id: number;
  period: Period;
  fromDay: string;
  toDay: string;
  generatedAt: number;
  counts: Record<Metric, number>;
}

/** The generation readers are pointed at for a period. */
export async function findCurrentGeneration(db: Queryable, period: Period): Promise<GenerationRow | undefined> {
  const row = await db
    .selectFrom('leaderboard_current as c')
    .innerJoin('leaderboard_generations as g', 'g.id', 'c.generation')
    .selectAll('g')
    .where('c.period', '=', period)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: Number(row.id),
    period,
    fromDay: row.from_day,
    toDay: row.to_day,
    generatedAt: Number(row.generated_at),
    counts: {
      all: Number(row.count_all),
      gpt: Number(row.count_gpt),
      claude: Number(row.count_claude),
      other: Number(row.count_other),
    },
  };
}

/** A snapshot row: immutable once written, so callers may cache it per generation. */
export interface EntryRow extends FamilyCosts {
  userId: string;
  rank: number | null;
  total: bigint;
  gpt: bigint;
  claude: bigint;
  other: bigint;
  totalCost: bigint;
}

/** A user's current public identity, joined at read time (never stored in a snapshot). */
export interface PublicIdentity {
  displayName: string | null;
  avatarUrl: string | null;
  isPublic: boolean;
}

function costsOf(r: { total_cost: bigint; gpt_cost: bigint; claude_cost: bigint; other_cost: bigint }) {
  return { totalCost: r.total_cost, gptCost: r.gpt_cost, claudeCost: r.claude_cost, otherCost: r.other_cost };
}

/** Places offset+1 … offset+limit of a metric in a generation: a range read on the primary key. */
export async function listEntryPage(
  db: Queryable,
  generation: number,
  metric: Metric,
  limit: number,
  offset: number,
): Promise<EntryRow[]> {
  const rows = await db
    .selectFrom('leaderboard_entries as e')
    .innerJoin('leaderboard_members as m', (join) =>
      join.onRef('m.generation', '=', 'e.generation').onRef('m.user_id', '=', 'e.user_id'),
    )
    .select([
      'e.user_id',
      'e.rank',
      'm.total',
      'm.gpt',
      'm.claude',
      'm.other',
      'm.total_cost',
      'm.gpt_cost',
      'm.claude_cost',
      'm.other_cost',
    ])
    .where('e.generation', '=', BigInt(generation))
    .where('e.metric', '=', metric)
    .where('e.pos', '>', BigInt(offset))
    .where('e.pos', '<=', BigInt(offset + limit))
    .orderBy('e.pos')
    .execute();
  return rows.map((r) => ({
    userId: r.user_id,
    rank: Number(r.rank),
    total: r.total,
    gpt: r.gpt,
    claude: r.claude,
    other: r.other,
    ...costsOf(r),
  }));
}

/** One user's row in a generation, with the metric's rank (null without usage in it), if ranked at all. */
export async function findEntry(
  db: Queryable,
  generation: number,
  metric: Metric,
  userId: string,
): Promise<EntryRow | undefined> {
  const row = await db
    .selectFrom('leaderboard_members')
    .select([
      'user_id',
      `rank_${metric} as rank` as 'rank_all as rank',
      'total',
      'gpt',
      'claude',
      'other',
      'total_cost',
      'gpt_cost',
      'claude_cost',
      'other_cost',
    ])
    .where('generation', '=', BigInt(generation))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    userId: row.user_id,
    rank: row.rank === null ? null : Number(row.rank),
    total: row.total,
    gpt: row.gpt,
    claude: row.claude,
    other: row.other,
    ...costsOf(row),
  };
}

const IDENTITY_SQL = {
  sqlite: `select u.id, u.display_name, u.avatar_url, v.token_hash from json_each(@p1) j
    join users u on u.id = j.value
    left join public_views v on v.user_id = u.id and v.revoked_at is null`,
  postgres: `select u.id, u.display_name, u.avatar_url, v.token_hash from users u
    left join public_views v on v.user_id = u.id and v.revoked_at is null
    where u.id = any($1::text[])`,
};

/**
 * Current names, avatars and visibility of some users, in one read of a fixed statement (the ids
 * travel as one JSON or array parameter). Users that do not exist are absent from the map. (On
 * SQLite it may see an open transaction's uncommitted profile change: harmless, the identity
 * revision moves on with the commit, or again if it is rolled back.)
 */
export async function listPublicIdentities(db: Db, userIds: readonly string[]): Promise<Map<string, PublicIdentity>> {
  const out = new Map<string, PublicIdentity>();
  if (userIds.length === 0) return out;
  const ids = [...new Set(userIds)];
  const rows = await rawRows(db, IDENTITY_SQL, [db.dialect === 'sqlite' ? JSON.stringify(ids) : ids]);
  for (const [id, displayName, avatarUrl, tokenHash] of rows as [
    string,
    string | null,
    string | null,
    string | null,
  ][]) {
    out.set(id, { displayName, avatarUrl, isPublic: tokenHash !== null });
  }
  return out;
}

const REVISION_SQL = {
  sqlite: 'select revision from identity_revision where id = 1',
  postgres: 'select revision from identity_revision where id = 1',
};

/**
 * The identity revision (migration 0005): it moves whenever a public name, avatar or visibility
 * may have changed, so identities read at one revision stay right until it moves.
 */
export async function readIdentityRevision(db: Db): Promise<bigint> {
  const [row] = await rawRows(db, REVISION_SQL, []);
  return (row?.[0] as bigint | undefined) ?? 0n;
}
