/**
 * @fileoverview Leaderboard snapshots: the per-user family sums they are built from, writing a
 * generation, switching to it in one step, and the reads of a page, one row and the current
 * generation. Names and visibility are joined here at read time, never stored in a snapshot.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Metric, Period, PeriodWindow, RankedRow, UserTotals } from '../../services/leaderboard-ranking.js';
import type { Db } from '../connect.js';
import type { Database } from '../schema.js';

type Q = Kysely<Database>;

/**
 * Billable tokens per user and family in a period, from the trigger-maintained aggregates (one
 * row per user): `week` and `month` are the keys of the window (see the aggregates migration).
 */
export async function listFamilyTotals(db: Q, period: Period, key: { week: number; month: number }): Promise<UserTotals[]> {
  const rows =
    period === 'week'
      ? await db.selectFrom('leaderboard_user_weeks').select(['user_id', 'gpt', 'claude', 'other']).where('week', '=', BigInt(key.week)).execute()
      : period === 'month'
        ? await db.selectFrom('leaderboard_user_months').select(['user_id', 'gpt', 'claude', 'other']).where('month', '=', BigInt(key.month)).execute()
        : await db.selectFrom('leaderboard_user_totals').select(['user_id', 'gpt', 'claude', 'other']).execute();
  return rows.map((r) => ({ userId: r.user_id, gpt: r.gpt, claude: r.claude, other: r.other }));
}

/** The next free generation id (callers hold the refresh lock). */
export async function nextGenerationId(db: Q): Promise<number> {
  const row = await db.selectFrom('leaderboard_generations').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0n) + 1;
}

export async function insertGeneration(
  db: Q,
  g: { id: number; window: PeriodWindow; generatedAt: number; counts: Record<Metric, number> },
): Promise<void> {
  await db
    .insertInto('leaderboard_generations')
    .values({
      id: g.id,
      period: g.window.period,
      from_day: g.window.fromDay,
      to_day: g.window.toDay,
      generated_at: g.generatedAt,
      count_all: g.counts.all,
      count_gpt: g.counts.gpt,
      count_claude: g.counts.claude,
      count_other: g.counts.other,
    })
    .execute();
}

const ENTRY_COLUMNS = [
  'generation', 'user_id', 'total', 'gpt', 'claude', 'other',
  'rank_all', 'pos_all', 'rank_gpt', 'pos_gpt', 'rank_claude', 'pos_claude', 'rank_other', 'pos_other',
] as const;

function entryValues(generation: number, r: RankedRow): (string | number | bigint | null)[] {
  return [
    generation, r.userId, r.total, r.gpt, r.claude, r.other,
    r.rank.all, r.pos.all, r.rank.gpt, r.pos.gpt, r.rank.claude, r.pos.claude, r.rank.other, r.pos.other,
  ];
}

/**
 * Writes a generation's rows in chunks (each its own transaction, so other writers interleave).
 * Nobody reads them until {@link switchGenerations} points at the generation.
 * SQLite: one prepared statement; PostgreSQL: `unnest` arrays, 5,000 rows a statement.
 */
export async function insertEntries(db: Db, generation: number, rows: readonly RankedRow[]): Promise<void> {
  const CHUNK = 5000;
  if (db.dialect === 'sqlite') {
    const insert = db.sqlite.prepare(`insert into leaderboard_entries (${ENTRY_COLUMNS.join(', ')}) values (${ENTRY_COLUMNS.map(() => '?').join(', ')})`);
    const writeChunk = db.sqlite.transaction((chunk: readonly RankedRow[]) => {
      for (const r of chunk) insert.run(...entryValues(generation, r));
    });
    for (let i = 0; i < rows.length; i += CHUNK) {
      await db.writeLock.run(() => writeChunk(rows.slice(i, i + CHUNK)));
    }
    return;
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const col = (k: number) => chunk.map((r) => {
      const v = entryValues(generation, r)[k];
      return v === null || v === undefined ? null : String(v);
    });
    await sql`insert into leaderboard_entries (${sql.join(ENTRY_COLUMNS.map((c) => sql.ref(c)))})
      select * from unnest(
        ${col(0)}::bigint[], ${col(1)}::text[], ${col(2)}::bigint[], ${col(3)}::bigint[], ${col(4)}::bigint[], ${col(5)}::bigint[],
        ${col(6)}::bigint[], ${col(7)}::bigint[], ${col(8)}::bigint[], ${col(9)}::bigint[], ${col(10)}::bigint[], ${col(11)}::bigint[],
        ${col(12)}::bigint[], ${col(13)}::bigint[])`.execute(db.kysely);
  }
}

/** Points each period at its new generation and records the run, in one transaction: the switch readers see. */
export async function switchGenerations(
  db: Q,
  switches: readonly { period: Period; generation: number }[],
  run: { periods: readonly Period[]; result: string; finishedAt: number },
): Promise<number> {
  for (const s of switches) {
    await db
      .insertInto('leaderboard_current')
      .values({ period: s.period, generation: s.generation })
      .onConflict((oc) => oc.column('period').doUpdateSet({ generation: s.generation }))
      .execute();
  }
  const last = await db.selectFrom('leaderboard_runs').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  const id = Number(last?.id ?? 0n) + 1;
  await db.insertInto('leaderboard_runs').values({ id, periods: run.periods.join(','), result: run.result, finished_at: run.finishedAt }).execute();
  return id;
}

/**
 * Deletes generations that are neither current nor the one just before it (kept so a reader that
 * picked it up a moment before the switch still finds its rows).
 */
export async function deleteOldGenerations(db: Q, period: Period): Promise<void> {
  const keep = await db
    .selectFrom('leaderboard_generations')
    .select('id')
    .where('period', '=', period)
    .orderBy('id', 'desc')
    .limit(2)
    .execute();
  const ids = keep.map((k) => k.id);
  if (ids.length === 0) return;
  const stale = await db.selectFrom('leaderboard_generations').select('id').where('period', '=', period).where('id', 'not in', ids).execute();
  if (stale.length === 0) return;
  const staleIds = stale.map((s) => s.id);
  await db.deleteFrom('leaderboard_entries').where('generation', 'in', staleIds).execute();
  await db.deleteFrom('leaderboard_generations').where('id', 'in', staleIds).execute();
}

/** Keeps the last `keep` refresh runs (their answers are only needed by callers waiting right now). */
export async function deleteOldRuns(db: Q, latestId: number, keep = 100): Promise<void> {
  await db.deleteFrom('leaderboard_runs').where('id', '<=', BigInt(latestId - keep)).execute();
}

export async function latestRunId(db: Q): Promise<number> {
  const row = await db.selectFrom('leaderboard_runs').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0n);
}

/** Runs finished after `afterId`, newest first. */
export async function listRunsAfter(db: Q, afterId: number): Promise<{ id: number; periods: Period[]; result: string }[]> {
  const rows = await db.selectFrom('leaderboard_runs').selectAll().where('id', '>', BigInt(afterId)).orderBy('id', 'desc').execute();
  return rows.map((r) => ({ id: Number(r.id), periods: r.periods.split(',') as Period[], result: r.result }));
}

export interface GenerationRow {
  id: number;
  period: Period;
  fromDay: string;
  toDay: string;
  generatedAt: number;
  counts: Record<Metric, number>;
}

/** The generation readers are pointed at for a period. */
export async function findCurrentGeneration(db: Q, period: Period): Promise<GenerationRow | undefined> {
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
    counts: { all: Number(row.count_all), gpt: Number(row.count_gpt), claude: Number(row.count_claude), other: Number(row.count_other) },
  };
}

/** A snapshot row: immutable once written, so callers may cache it per generation. */
export interface EntryRow {
  userId: string;
  rank: number | null;
  total: bigint;
  gpt: bigint;
  claude: bigint;
  other: bigint;
}

/** A user's current public identity, joined at read time (never stored in a snapshot). */
export interface PublicIdentity {
  displayName: string | null;
  avatarUrl: string | null;
  isPublic: boolean;
}

function entrySelect(db: Q, generation: number, metric: Metric) {
  return db
    .selectFrom('leaderboard_entries as e')
    .select(['e.user_id', `e.rank_${metric} as rank` as 'e.rank_all as rank', 'e.total', 'e.gpt', 'e.claude', 'e.other'])
    .where('e.generation', '=', BigInt(generation));
}

function toEntry(row: { user_id: string; rank: bigint | null; total: bigint; gpt: bigint; claude: bigint; other: bigint }): EntryRow {
  return { userId: row.user_id, rank: row.rank === null ? null : Number(row.rank), total: row.total, gpt: row.gpt, claude: row.claude, other: row.other };
}

/** Places offset+1 … offset+limit of a metric in a generation: a range read on (generation, pos). */
export async function listEntryPage(db: Q, generation: number, metric: Metric, limit: number, offset: number): Promise<EntryRow[]> {
  const pos = `e.pos_${metric}` as 'e.pos_all';
  const rows = await entrySelect(db, generation, metric).where(pos, '>', BigInt(offset)).where(pos, '<=', BigInt(offset + limit)).orderBy(pos).execute();
  return rows.map(toEntry);
}

/** One user's row in a generation, if ranked. */
export async function findEntry(db: Q, generation: number, metric: Metric, userId: string): Promise<EntryRow | undefined> {
  const row = await entrySelect(db, generation, metric).where('e.user_id', '=', userId).executeTakeFirst();
  return row ? toEntry(row) : undefined;
}

const IDENTITY_SQL = {
  sqlite: `select u.id, u.display_name, u.avatar_url, v.token_hash from users u
    left join public_views v on v.user_id = u.id and v.revoked_at is null
    where u.id in (select value from json_each(?))`,
  postgres: `select u.id, u.display_name, u.avatar_url, v.token_hash from users u
    left join public_views v on v.user_id = u.id and v.revoked_at is null
    where u.id = any($1::text[])`,
} as const;

/**
 * Current names, avatars and visibility of some users, in one read. The statement text is fixed
 * (the ids travel as one JSON or array parameter), so it is prepared once and no query is built
 * per request: this runs on every leaderboard read.
 */
export async function listPublicIdentities(db: Db, userIds: readonly string[]): Promise<Map<string, PublicIdentity>> {
  const out = new Map<string, PublicIdentity>();
  if (userIds.length === 0) return out;
  const ids = [...new Set(userIds)];
  const parameter = db.dialect === 'sqlite' ? JSON.stringify(ids) : ids;
  const result = await db.kysely.executeQuery<{ id: string; display_name: string | null; avatar_url: string | null; token_hash: string | null }>(
    CompiledQuery.raw(IDENTITY_SQL[db.dialect], [parameter]),
  );
  for (const r of result.rows) out.set(r.id, { displayName: r.display_name, avatarUrl: r.avatar_url, isPublic: r.token_hash !== null });
  return out;
}
