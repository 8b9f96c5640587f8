/**
 * @fileoverview Stored costs of `usage_daily`: which price data priced them (`read_model_state`),
 * reading rows to reprice in batches of users, and the swap that ends a repricing (its new costs,
 * kept in `usage_daily_repriced`, replace the stored ones in one transaction, together with the
 * fingerprint, the sums of `usage_blocks` and the teams' `team_usage_daily` costs). See
 * src/services/repricing.ts and docs/pricing.md, "Stored costs".
 *
 * Which data priced the stored costs changes only in the swap. On SQLite the swap is one
 * synchronous transaction on the connection, under the database's write lock that every upload
 * takes too; on PostgreSQL it holds {@link COSTS_LOCK_KEY} exclusively, which every upload holds
 * shared before it reads the fingerprint (ingest/postgres/writer.ts). So an upload always prices
 * its rows with the data the stored costs are priced by when it commits.
 *
 * The swap moves the leaderboard's per-period family costs by each changed row's difference, in the
 * same transaction (leaderboard-costs.ts): they stay the sums of the stored costs.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { BLOCK_DAYS } from '../../domain/calendar.js';
import type { PricedCounts } from '../../domain/token-counts.js';
import type { Db } from '../connect.js';
import { advisoryXactLock, COSTS_LOCK_KEY, REPRICING_LOCK_KEY } from '../dialect.js';
import { inSqliteTransaction, inTransaction, type Tx } from '../transaction.js';
import { addPeriodCosts, addPeriodCostsSync, PeriodCostChanges } from './leaderboard-costs.js';

/** The `read_model_state` row recording which price data priced the stored costs. */
export const COSTS_STATE = 'usage_daily.cost_micros';

/** PostgreSQL: an upload's shared hold of {@link COSTS_LOCK_KEY}, taken before {@link COSTS_FINGERPRINT_SQL}. */
export const COSTS_SHARED_LOCK_SQL = `SELECT pg_advisory_xact_lock_shared(hashtextextended('${COSTS_LOCK_KEY}', 0))`;

/** The fingerprint of the data that priced the stored costs, as one statement (one row `value`, or none). */
export const COSTS_FINGERPRINT_SQL = `SELECT value FROM read_model_state WHERE name = '${COSTS_STATE}'`;

/** The fingerprint in the result of {@link COSTS_FINGERPRINT_SQL} (pg's result, or the last of several). */
export function fingerprintFromResult(result: unknown): string | null {
  const last: unknown = Array.isArray(result) ? result[result.length - 1] : result;
  const value = (last as { rows?: { value?: unknown }[] } | undefined)?.rows?.[0]?.value;
  return typeof value === 'string' ? value : null;
}

/** One stored row's key, the counts that get priced, and its cost. */
export interface DailyCostRow extends Readonly<PricedCounts> {
  readonly userId: string;
  readonly day: number;
  readonly source: string;
  readonly model: string;
  readonly costMicros: bigint;
}

/** The fingerprint of the price data that priced the stored costs, or null when none did yet. */
export async function readCostsFingerprint(db: Db): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('read_model_state')
    .select('value')
    .where('name', '=', COSTS_STATE)
    .executeTakeFirst();
  return row?.value ?? null;
}

const fingerprintStatements = new WeakMap<BetterSqlite3.Database, () => string | null>();

/** {@link readCostsFingerprint} read synchronously on one connection (the SQLite ingest writer, inside its transaction). */
export function readCostsFingerprintSync(sqlite: BetterSqlite3.Database): string | null {
  let read = fingerprintStatements.get(sqlite);
  if (read === undefined) {
    const statement = sqlite.prepare<[], string>(COSTS_FINGERPRINT_SQL).pluck(true);
    read = () => statement.get() ?? null;
    fingerprintStatements.set(sqlite, read);
  }
  return read();
}

/** Records `fingerprint` unless a fingerprint is recorded already; returns the one recorded. */
export async function claimCostsFingerprint(db: Db, fingerprint: string, nowMs: number): Promise<string> {
  await db.kysely
    .insertInto('read_model_state')
    .values({ name: COSTS_STATE, value: fingerprint, updated_at: nowMs })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await readCostsFingerprint(db)) ?? fingerprint;
}

export async function hasDailyRows(db: Db): Promise<boolean> {
  return (await db.kysely.selectFrom('usage_daily').select('user_id').limit(1).executeTakeFirst()) !== undefined;
}

/** Up to `limit` user ids with daily rows, after `afterUserId`, in order. */
export async function listUsersWithDaily(db: Db, afterUserId: string, limit: number): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('usage_daily')
    .select('user_id')
    .distinct()
    .where('user_id', '>', afterUserId)
    .orderBy('user_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}

const DAILY_COLUMNS = [
  'user_id',
  'day',
  'source',
  'model',
  'input',
  'cached_input',
  'output',
  'reasoning',
  'cost_micros',
] as const;

type DailyRecord = { [K in (typeof DAILY_COLUMNS)[number]]: unknown };

function dailyRow(r: DailyRecord): DailyCostRow {
  return {
    userId: r.user_id as string,
    day: Number(r.day),
    source: r.source as string,
    model: r.model as string,
    input: BigInt(r.input as bigint),
    cached: BigInt(r.cached_input as bigint),
    output: BigInt(r.output as bigint),
    reasoning: BigInt(r.reasoning as bigint),
    costMicros: BigInt(r.cost_micros as bigint),
  };
}

/** The daily rows of some users, as stored now. */
export async function readDailyRows(db: Db, userIds: readonly string[]): Promise<DailyCostRow[]> {
  if (userIds.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('usage_daily')
    .select([...DAILY_COLUMNS])
    .where('user_id', 'in', userIds)
    .execute();
  return rows.map(dailyRow);
}

const SAME_ROW = 'd.user_id = r.user_id AND d.source = r.source AND d.model = r.model AND d.day = r.day';
const SAME_COUNTS =
  'd.input = r.input AND d.cached_input = r.cached_input AND d.output = r.output AND d.reasoning = r.reasoning';
/** Rows without a new cost for their present counts: new since their batch, or changed by an upload since. */
const STALE_SQL = `SELECT ${DAILY_COLUMNS.map((c) => `d.${c}`).join(', ')}
  FROM usage_daily d LEFT JOIN usage_daily_repriced r ON ${SAME_ROW}
 WHERE r.user_id IS NULL OR NOT (${SAME_COUNTS})`;
/** What the swap's bulk update changes: each row's (user, day, model) and its cost's difference, read before it. */
const SWAP_CHANGES_SQL = `SELECT d.user_id, d.day, d.model, r.cost_micros - d.cost_micros AS delta
  FROM usage_daily d JOIN usage_daily_repriced r ON ${SAME_ROW} AND ${SAME_COUNTS}
 WHERE d.cost_micros <> r.cost_micros`;
const SQLITE_SWAP_SQL = `UPDATE usage_daily AS d SET cost_micros = r.cost_micros FROM usage_daily_repriced AS r
 WHERE ${SAME_ROW} AND ${SAME_COUNTS} AND d.cost_micros <> r.cost_micros`;

/**
 * Every `usage_blocks` row's cost set to the sum of its days' stored costs (migration 0027), in
 * the swap's transaction, after the days' costs changed: one pass over `usage_daily` in key order.
 */
const BLOCK_COSTS_SQL = `UPDATE usage_blocks AS b SET cost_micros = s.cost
  FROM (SELECT user_id, day / ${BLOCK_DAYS} AS block, source, model, sum(cost_micros) AS cost
          FROM usage_daily GROUP BY user_id, day / ${BLOCK_DAYS}, source, model) AS s
 WHERE b.user_id = s.user_id AND b.block = s.block AND b.source = s.source AND b.model = s.model
   AND b.cost_micros <> s.cost`;

/**
 * Every `team_usage_daily` row's cost set to the sum of its current members' stored costs
 * (migration 0030), in the swap's transaction, after the days' costs changed. Membership changes
 * hold the stored costs shared on PostgreSQL (db/locks.ts, `lockUserUsage`), so none commits
 * between this read of the members and the update.
 */
const TEAM_COSTS_SQL = `UPDATE team_usage_daily AS t SET cost_micros = s.cost
  FROM (SELECT m.team_id, r.day, r.source, r.model, sum(r.cost_micros) AS cost
          FROM team_members m JOIN usage_daily r ON r.user_id = m.user_id
         GROUP BY m.team_id, r.day, r.source, r.model) AS s
 WHERE t.team_id = s.team_id AND t.day = s.day AND t.source = s.source AND t.model = s.model
   AND t.cost_micros <> s.cost`;

export interface SwapResult {
  /** Stored costs that changed. */
  readonly changed: number;
  /** Rows priced in the swap itself (their counts changed after their batch). */
  readonly caughtUp: number;
}

/**
 * Ends the repricing to `target` held by `holder`: in one transaction, every stored cost becomes
 * its new cost (from `usage_daily_repriced` where the counts are those it priced, else `price`),
 * the recorded fingerprint becomes `target`, the repricing's state is removed, and of the kept
 * price data only the new and the previous data stay (an answer begun just before may still ask
 * for the previous). Answers undefined, changing nothing, when the repricing is no longer
 * `holder`'s or its target changed.
 */
export async function swapRepricedCosts(
  db: Db,
  q: {
    readonly holder: string;
    readonly target: string;
    readonly nowMs: number;
    readonly price: (row: DailyCostRow) => bigint;
  },
): Promise<SwapResult | undefined> {
  if (db.dialect === 'sqlite') {
    // Synchronous: no read on this connection sees half of it (db/transaction.ts).
    return inSqliteTransaction(db, () => {
      const s = db.sqlite;
      const state = s
        .prepare<[], { target: string; holder: string | null }>('SELECT target, holder FROM repricing WHERE id = 1')
        .get();
      if (state?.target !== q.target || state.holder !== q.holder) return undefined;
      const previous = readCostsFingerprintSync(s) ?? q.target;
      const periods = new PeriodCostChanges();
      const changes = s.prepare<[], [string, bigint, string, bigint]>(SWAP_CHANGES_SQL).raw(true);
      for (const [userId, day, model, delta] of changes.iterate()) periods.add(userId, Number(day), model, delta);
      let changed = s.prepare(SQLITE_SWAP_SQL).run().changes;
      const stale = (s.prepare(STALE_SQL).all() as DailyRecord[]).map(dailyRow);
      const update = s.prepare(
        'UPDATE usage_daily SET cost_micros = ? WHERE user_id = ? AND source = ? AND model = ? AND day = ?',
      );
      for (const row of stale) {
        const cost = q.price(row);
        if (cost === row.costMicros) continue;
        changed += update.run(cost, row.userId, row.source, row.model, row.day).changes;
        periods.add(row.userId, row.day, row.model, cost - row.costMicros);
      }
      s.prepare(BLOCK_COSTS_SQL).run();
      s.prepare(TEAM_COSTS_SQL).run();
      addPeriodCostsSync(s, periods);
      s.prepare(
        'INSERT INTO read_model_state (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      ).run(COSTS_STATE, q.target, q.nowMs);
      s.prepare('DELETE FROM repricing').run();
      s.prepare('DELETE FROM usage_daily_repriced').run();
      s.prepare('DELETE FROM price_snapshots WHERE fingerprint NOT IN (?, ?)').run(q.target, previous);
      return { changed, caughtUp: stale.length };
    });
  }
  return inTransaction(db, async (tx) => {
    await advisoryXactLock(REPRICING_LOCK_KEY).execute(tx);
    const state = await tx.selectFrom('repricing').select(['target', 'holder']).where('id', '=', 1).executeTakeFirst();
    if (state?.target !== q.target || state.holder !== q.holder) return undefined;
    // Waits for the uploads in flight; later ones wait for this and then read the new fingerprint.
    await advisoryXactLock(COSTS_LOCK_KEY).execute(tx);
    const previous =
      (await tx.selectFrom('read_model_state').select('value').where('name', '=', COSTS_STATE).executeTakeFirst())
        ?.value ?? q.target;
    const periods = new PeriodCostChanges();
    const changes = await sql<{
      user_id: string;
      day: bigint;
      model: string;
      delta: bigint;
    }>`${sql.raw(SWAP_CHANGES_SQL)}`.execute(tx);
    for (const c of changes.rows) periods.add(c.user_id, Number(c.day), c.model, BigInt(c.delta));
    const swapped = await sql`UPDATE usage_daily d SET cost_micros = r.cost_micros FROM usage_daily_repriced r
                               WHERE ${sql.raw(SAME_ROW)} AND ${sql.raw(SAME_COUNTS)} AND d.cost_micros <> r.cost_micros`.execute(
      tx,
    );
    const stale = (await sql<DailyRecord>`${sql.raw(STALE_SQL)}`.execute(tx)).rows.map(dailyRow);
    const changed = await updateCosts(tx, stale, q.price, periods);
    await sql`${sql.raw(BLOCK_COSTS_SQL)}`.execute(tx);
    await sql`${sql.raw(TEAM_COSTS_SQL)}`.execute(tx);
    await addPeriodCosts(tx, periods);
    await tx
      .insertInto('read_model_state')
      .values({ name: COSTS_STATE, value: q.target, updated_at: q.nowMs })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: q.target, updated_at: q.nowMs }))
      .execute();
    await tx.deleteFrom('repricing').execute();
    await sql`TRUNCATE usage_daily_repriced`.execute(tx);
    await tx.deleteFrom('price_snapshots').where('fingerprint', 'not in', [q.target, previous]).execute();
    return { changed: Number(swapped.numAffectedRows ?? 0n) + changed, caughtUp: stale.length };
  });
}

/** PostgreSQL: sets the new cost of the rows whose cost changes (their differences added to `periods`); returns how many. */
async function updateCosts(
  tx: Tx,
  rows: readonly DailyCostRow[],
  price: (row: DailyCostRow) => bigint,
  periods: PeriodCostChanges,
): Promise<number> {
  const changed = rows.map((row) => ({ row, cost: price(row) })).filter((c) => c.cost !== c.row.costMicros);
  for (const c of changed) periods.add(c.row.userId, c.row.day, c.row.model, c.cost - c.row.costMicros);
  if (changed.length === 0) return 0;
  await sql`UPDATE usage_daily d SET cost_micros = v.cost
              FROM unnest(${changed.map((c) => c.row.userId)}::text[], ${changed.map((c) => c.row.day)}::int8[], ${changed.map((c) => c.row.source)}::text[],
                          ${changed.map((c) => c.row.model)}::text[], ${changed.map((c) => c.cost)}::int8[]) AS v(user_id, day, source, model, cost)
             WHERE d.user_id = v.user_id AND d.day = v.day AND d.source = v.source AND d.model = v.model`.execute(tx);
  return changed.length;
}
