/**
 * @fileoverview Leaderboard snapshots: the per-user family sums they are built from, writing a
 * generation, switching to it in one step, pruning, and the refresh lease. The reads of a
 * snapshot are in leaderboard-reads.ts.
 */
import type { Queryable } from '../connect.js';
import { sql } from 'kysely';
import {
  LAST_LISTED_PLACE,
  METRICS,
  type Metric,
  type Period,
  type PeriodWindow,
  type RankedRow,
  type UserTotals,
} from '../../domain/leaderboard-ranking.js';
import type { Db } from '../connect.js';
import { whenUnlocked } from '../sqlite-busy.js';

const FAMILY_COLUMNS = ['user_id', 'gpt', 'claude', 'other', 'gpt_cost', 'claude_cost', 'other_cost'] as const;

/** A family row as a snapshot ranks it (see {@link saneFamilyTotal}). */
export function userTotalsOf(r: {
  user_id: string;
  gpt: unknown;
  claude: unknown;
  other: unknown;
  gpt_cost: unknown;
  claude_cost: unknown;
  other_cost: unknown;
}): UserTotals {
  return {
    userId: r.user_id,
    gpt: saneFamilyTotal(r.gpt),
    claude: saneFamilyTotal(r.claude),
    other: saneFamilyTotal(r.other),
    gptCost: saneFamilyTotal(r.gpt_cost),
    claudeCost: saneFamilyTotal(r.claude_cost),
    otherCost: saneFamilyTotal(r.other_cost),
  };
}

/**
 * Billable tokens and stored costs per user and family in a period, from the aggregates the ingest
 * writers keep (one row per user): `week` and `month` are the keys of the window (see the
 * aggregates migration).
 */
export async function listFamilyTotals(
  db: Queryable,
  period: Period,
  key: { week: number; month: number },
): Promise<UserTotals[]> {
  const rows =
    period === 'week'
      ? await db
          .selectFrom('leaderboard_user_weeks')
          .select(FAMILY_COLUMNS)
          .where('week', '=', BigInt(key.week))
          .execute()
      : period === 'month'
        ? await db
            .selectFrom('leaderboard_user_months')
            .select(FAMILY_COLUMNS)
            .where('month', '=', BigInt(key.month))
            .execute()
        : await db.selectFrom('leaderboard_user_totals').select(FAMILY_COLUMNS).execute();
  return rows.map(userTotalsOf);
}

/**
 * The most one family total (tokens or micro-dollars) may count in a snapshot: the sum of a user's
 * three families must still fit the snapshot's 64-bit columns.
 */
export const FAMILY_TOTAL_CAP = (2n ** 63n - 1n) / 3n;

/**
 * A stored family total as a snapshot can hold it. Uploads are bounded per user and day
 * (docs/decisions.md, "Ingest"), so real rows are far below the cap; a row written before that bound existed
 * may have overflowed (on SQLite an overflowing `+` stores a float, read back as a number). Such a
 * row is ranked at the cap instead of failing the refresh for everyone.
 */
export function saneFamilyTotal(value: unknown): bigint {
  let v: bigint;
  if (typeof value === 'bigint') v = value;
  else if (typeof value === 'number' && Number.isFinite(value)) v = BigInt(Math.trunc(value));
  else if (typeof value === 'string' && /^-?\d+$/.test(value)) v = BigInt(value);
  else v = value === null || value === undefined ? 0n : FAMILY_TOTAL_CAP;
  return v < 0n ? 0n : v > FAMILY_TOTAL_CAP ? FAMILY_TOTAL_CAP : v;
}

/** The next free generation id (callers hold the refresh lock). */
export async function nextGenerationId(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('leaderboard_generations')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0n) + 1;
}

export async function insertGeneration(
  db: Queryable,
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

const MEMBER_COLUMNS = [
  'generation',
  'user_id',
  'total',
  'gpt',
  'claude',
  'other',
  'rank_all',
  'rank_gpt',
  'rank_claude',
  'rank_other',
  'total_cost',
  'gpt_cost',
  'claude_cost',
  'other_cost',
] as const;
const ENTRY_COLUMNS = ['generation', 'metric', 'pos', 'user_id', 'rank'] as const;
type Value = string | number | bigint | null;

function memberValues(generation: number, r: RankedRow): Value[] {
  return [
    generation,
    r.userId,
    r.total,
    r.gpt,
    r.claude,
    r.other,
    r.rank.all,
    r.rank.gpt,
    r.rank.claude,
    r.rank.other,
    r.totalCost,
    r.gptCost,
    r.claudeCost,
    r.otherCost,
  ];
}

/**
 * Each metric's places in order, as `leaderboard_entries` rows, up to the last place a page can
 * reach (offset ≤ 10,000, limit ≤ 100); everyone's rank stays in `leaderboard_members`.
 */
function entryRows(generation: number, rows: readonly RankedRow[]): Value[][] {
  const out: Value[][] = [];
  for (const metric of METRICS) {
    const placed = rows
      .filter((r) => r.pos[metric] !== null && (r.pos[metric] as number) <= LAST_LISTED_PLACE)
      .sort((a, b) => (a.pos[metric] as number) - (b.pos[metric] as number));
    for (const r of placed) out.push([generation, metric, r.pos[metric], r.userId, r.rank[metric]]);
  }
  return out;
}

const PG_TYPES: Record<string, string> = { user_id: 'text', metric: 'text' };

async function insertRows(
  db: Db,
  table: 'leaderboard_entries' | 'leaderboard_members',
  columns: readonly string[],
  rows: readonly Value[][],
): Promise<void> {
  const CHUNK = 5000;
  if (db.dialect === 'sqlite') {
    // 100 rows a statement: one call into SQLite per 100 rows instead of per row.
    const PER_STATEMENT = 100;
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const statement = (n: number) =>
      db.sqlite.prepare(
        `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: n }, () => tuple).join(', ')}`,
      );
    const full = statement(PER_STATEMENT);
    const writeChunk = db.sqlite.transaction((chunk: readonly Value[][]) => {
      let i = 0;
      for (; i + PER_STATEMENT <= chunk.length; i += PER_STATEMENT)
        full.run(...chunk.slice(i, i + PER_STATEMENT).flat());
      if (i < chunk.length) statement(chunk.length - i).run(...chunk.slice(i).flat());
    });
    // Each chunk takes the write lock when it begins; taken by another process, it is tried again.
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      await whenUnlocked(() => db.writeLock.run(() => writeChunk.immediate(chunk)), db.busyTimeoutMs);
    }
    return;
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const arrays = columns.map((c, k) => {
      const values = chunk.map((r) => (r[k] === null || r[k] === undefined ? null : String(r[k])));
      return sql`${values}::${sql.raw(PG_TYPES[c] ?? 'bigint')}[]`;
    });
    await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) select * from unnest(${sql.join(arrays)})`.execute(
      db.kysely,
    );
  }
}

/**
 * Writes a generation: its members in user id order and each metric's places in order, so both
 * tables only ever append (chunks of 5,000 rows, each its own transaction, so other writers
 * interleave). Nobody reads them until {@link switchGenerations} points at the generation.
 */
export async function insertEntries(db: Db, generation: number, rows: readonly RankedRow[]): Promise<void> {
  const members = [...rows]
    .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0))
    .map((r) => memberValues(generation, r));
  await insertRows(db, 'leaderboard_members', MEMBER_COLUMNS, members);
  await insertRows(db, 'leaderboard_entries', ENTRY_COLUMNS, entryRows(generation, rows));
}

/** Points each period at its new generation and records the run, in one transaction: the switch readers see. */
export async function switchGenerations(
  db: Queryable,
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
  const last = await db
    .selectFrom('leaderboard_runs')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  const id = Number(last?.id ?? 0n) + 1;
  await db
    .insertInto('leaderboard_runs')
    .values({ id, periods: run.periods.join(','), result: run.result, finished_at: run.finishedAt })
    .execute();
  return id;
}

/**
 * Deletes generations that are neither current nor the one just before it (kept so a reader that
 * picked it up a moment before the switch still finds its rows).
 */
export async function deleteOldGenerations(db: Queryable, period: Period): Promise<void> {
  const keep = await db
    .selectFrom('leaderboard_generations')
    .select('id')
    .where('period', '=', period)
    .orderBy('id', 'desc')
    .limit(2)
    .execute();
  const ids = keep.map((k) => k.id);
  if (ids.length === 0) return;
  const stale = await db
    .selectFrom('leaderboard_generations')
    .select('id')
    .where('period', '=', period)
    .where('id', 'not in', ids)
    .execute();
  if (stale.length === 0) return;
  const staleIds = stale.map((s) => s.id);
  await db.deleteFrom('leaderboard_entries').where('generation', 'in', staleIds).execute();
  await db.deleteFrom('leaderboard_members').where('generation', 'in', staleIds).execute();
  await db.deleteFrom('leaderboard_generations').where('id', 'in', staleIds).execute();
}

/** Keeps the last `keep` refresh runs (their answers are only needed by callers waiting right now). */
export async function deleteOldRuns(db: Queryable, latestId: number, keep = 100): Promise<void> {
  await db
    .deleteFrom('leaderboard_runs')
    .where('id', '<=', BigInt(latestId - keep))
    .execute();
}

export async function latestRunId(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('leaderboard_runs')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0n);
}

/** Runs finished after `afterId`, newest first. */
export async function listRunsAfter(
  db: Queryable,
  afterId: number,
): Promise<{ id: number; periods: Period[]; result: string }[]> {
  const rows = await db
    .selectFrom('leaderboard_runs')
    .selectAll()
    .where('id', '>', BigInt(afterId))
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), periods: r.periods.split(',') as Period[], result: r.result }));
}

/**
 * Takes the refresh lease for `holder` until `expiresAt` when nobody holds an unexpired one; run in
 * a write transaction (inTransaction), so two processes cannot both take it.
 */
export async function tryTakeRefreshLease(
  db: Queryable,
  holder: string,
  now: number,
  expiresAt: number,
): Promise<boolean> {
  const current = await db
    .selectFrom('leaderboard_refresh_lease')
    .select('expires_at')
    .where('id', '=', 1)
    .executeTakeFirst();
  if (current && Number(current.expires_at) > now) return false;
  await db
    .insertInto('leaderboard_refresh_lease')
    .values({ id: 1, holder, expires_at: expiresAt })
    .onConflict((oc) => oc.column('id').doUpdateSet({ holder, expires_at: expiresAt }))
    .execute();
  return true;
}

/** Gives the lease back (only if `holder` still has it). */
export async function releaseRefreshLease(db: Queryable, holder: string): Promise<void> {
  await db.deleteFrom('leaderboard_refresh_lease').where('id', '=', 1).where('holder', '=', holder).execute();
}

/** A user's family totals per ISO week for weeks [fromWeek, toWeek]: a range read on the primary key (user_id, week). */
export async function listUserWeeks(
  db: Queryable,
  userId: string,
  fromWeek: number,
  toWeek: number,
): Promise<{ week: number; gpt: bigint; claude: bigint; other: bigint }[]> {
  const rows = await db
    .selectFrom('leaderboard_user_weeks')
    .select(['week', 'gpt', 'claude', 'other'])
    .where('user_id', '=', userId)
    .where('week', '>=', BigInt(fromWeek))
    .where('week', '<=', BigInt(toWeek))
    .execute();
  return rows.map((r) => ({ week: Number(r.week), gpt: r.gpt, claude: r.claude, other: r.other }));
}
