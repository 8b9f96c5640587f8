/**
 * @fileoverview Stored costs of `usage_daily`: which price data priced them, and reading and
 * rewriting them in batches of users for repricing (src/services/repricing.ts). On PostgreSQL a
 * batch holds the same per-user advisory locks as ingest, so an upload and a repricing of the
 * same user never interleave; on SQLite the app-wide write lock does the same.
 */
import { sql } from 'kysely';
import { userIngestLockKey } from '../dialect.js';
import type { TokenCounts } from '../../pricing/rates.js';
import type { Db } from '../connect.js';
import { inTransaction, type Tx } from '../transaction.js';

const COSTS_STATE = 'usage_daily.cost_micros';

/** One stored row's key, the counts that get priced, and its cost. */
export interface DailyCostRow extends TokenCounts {
  readonly userId: string;
  readonly day: number;
  readonly source: string;
  readonly model: string;
  readonly costMicros: bigint;
}

/** The fingerprint of the price data that priced the stored costs, or null when none did yet. */
export async function readCostsFingerprint(db: Db): Promise<string | null> {
  const row = await db.kysely.selectFrom('read_model_state').select('value').where('name', '=', COSTS_STATE).executeTakeFirst();
  return row?.value ?? null;
}

export async function writeCostsFingerprint(db: Db, fingerprint: string, nowMs: number): Promise<void> {
  await db.kysely
    .insertInto('read_model_state')
    .values({ name: COSTS_STATE, value: fingerprint, updated_at: nowMs })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: fingerprint, updated_at: nowMs }))
    .execute();
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

async function lockUsers(tx: Tx, db: Db, userIds: readonly string[]): Promise<void> {
  if (db.dialect !== 'postgres') return;
  const keys = [...userIds].sort().map(userIngestLockKey);
  await sql`select pg_advisory_xact_lock(hashtextextended(k, 0)) from unnest(${keys}::text[]) with ordinality as t(k, n) order by n`.execute(tx);
}

/**
 * In one transaction holding the users' ingest locks: reads their daily rows, asks `price` for
 * each row's cost, and rewrites the ones that changed. Returns (rows read, rows changed).
 */
export async function repriceUsers(
  db: Db,
  userIds: readonly string[],
  price: (row: DailyCostRow) => bigint,
): Promise<{ rows: number; changed: number }> {
  return inTransaction(db, async (tx) => {
    await lockUsers(tx, db, userIds);
    const rows = await tx
      .selectFrom('usage_daily')
      .select(['user_id', 'day', 'source', 'model', 'input', 'cached_input', 'output', 'reasoning', 'cost_micros'])
      .where('user_id', 'in', userIds)
      .execute();
    const changed: { userId: string; day: number; source: string; model: string; cost: bigint }[] = [];
    for (const r of rows) {
      const row: DailyCostRow = {
        userId: r.user_id,
        day: Number(r.day),
        source: r.source,
        model: r.model,
        input: BigInt(r.input),
        cachedInput: BigInt(r.cached_input),
        output: BigInt(r.output),
        reasoning: BigInt(r.reasoning),
        costMicros: BigInt(r.cost_micros),
      };
      const cost = price(row);
      if (cost !== row.costMicros) changed.push({ userId: row.userId, day: row.day, source: row.source, model: row.model, cost });
    }
    if (changed.length === 0) return { rows: rows.length, changed: 0 };
    if (db.dialect === 'sqlite') {
      // Same connection, inside the open transaction: a prepared statement per row is the cheap path.
      const update = db.sqlite.prepare('UPDATE usage_daily SET cost_micros = ? WHERE user_id = ? AND day = ? AND source = ? AND model = ?');
      for (const c of changed) update.run(c.cost, c.userId, c.day, c.source, c.model);
    } else {
      await sql`update usage_daily d set cost_micros = v.cost
                  from unnest(${changed.map((c) => c.userId)}::text[], ${changed.map((c) => c.day)}::int8[], ${changed.map((c) => c.source)}::text[],
                              ${changed.map((c) => c.model)}::text[], ${changed.map((c) => c.cost)}::int8[]) as v(user_id, day, source, model, cost)
                 where d.user_id = v.user_id and d.day = v.day and d.source = v.source and d.model = v.model`.execute(tx);
    }
    return { rows: rows.length, changed: changed.length };
  });
}
