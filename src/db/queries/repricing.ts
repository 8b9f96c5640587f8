/**
 * @fileoverview The state of a repricing of the stored costs (`repricing`: one row while one runs)
 * and its batches of new costs (`usage_daily_repriced`); src/services/repricing.ts runs it. Every
 * change to the row is a transaction holding {@link REPRICING_LOCK_KEY} on PostgreSQL (SQLite
 * serialises writers), so the requests of several processes, the lease and the batches each see
 * the others whole: a batch of a repricing whose target changed, or whose lease another process
 * took, is not stored.
 */
import { sql } from 'kysely';
import type { PricedCounts } from '../../domain/token-counts.js';
import type { Db } from '../connect.js';
import { advisoryXactLock, REPRICING_LOCK_KEY } from '../dialect.js';
import { inSqliteTransaction, inTransaction, type Tx } from '../transaction.js';
import { COSTS_STATE } from './daily-costs.js';
import { savePriceSnapshot, type PriceSnapshot } from './price-snapshots.js';

export interface RepricingState {
  /** Fingerprint of the data the stored costs are being moved to. */
  readonly target: string;
  /** Users up to this id are repriced. */
  readonly afterUser: string;
  readonly rowsDone: number;
  readonly startedAt: number;
  readonly holder: string | null;
  readonly leaseUntil: number;
}

/** A row's new cost, with the counts it priced. */
export interface RepricedRow extends Readonly<PricedCounts> {
  readonly userId: string;
  readonly day: number;
  readonly source: string;
  readonly model: string;
  readonly cost: bigint;
}

async function locked<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, async (tx) => {
    if (db.dialect === 'postgres') await advisoryXactLock(REPRICING_LOCK_KEY).execute(tx);
    return fn(tx);
  });
}

async function stateOf(tx: Tx | Db['kysely']): Promise<RepricingState | undefined> {
  const row = await tx.selectFrom('repricing').selectAll().where('id', '=', 1).executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    target: row.target,
    afterUser: row.after_user,
    rowsDone: Number(row.rows_done),
    startedAt: Number(row.started_at),
    holder: row.holder,
    leaseUntil: Number(row.lease_until),
  };
}

/** The repricing under way, if any. */
export async function readRepricing(db: Db): Promise<RepricingState | undefined> {
  return stateOf(db.kysely);
}

async function clearRepriced(tx: Tx, db: Db): Promise<void> {
  if (db.dialect === 'postgres') await sql`TRUNCATE usage_daily_repriced`.execute(tx);
  else await tx.deleteFrom('usage_daily_repriced').execute();
}

/**
 * Asks for the stored costs to be priced by the data `snapshot`, keeping it (in the same
 * transaction as the swap prunes kept data, so what is asked for is kept): nothing to do when they
 * are (a repricing to other data is called off) or when a repricing to it is under way; otherwise
 * a repricing to it starts from the first user (replacing one to other data).
 */
export async function requestRepricing(
  db: Db,
  snapshot: PriceSnapshot,
  nowMs: number,
): Promise<'current' | 'repricing'> {
  const target = snapshot.fingerprint;
  return locked(db, async (tx) => {
    await savePriceSnapshot(tx, snapshot, nowMs);
    const live = await tx
      .selectFrom('read_model_state')
      .select('value')
      .where('name', '=', COSTS_STATE)
      .executeTakeFirst();
    const state = await stateOf(tx);
    if (live?.value === target) {
      if (state !== undefined) {
        await tx.deleteFrom('repricing').execute();
        await clearRepriced(tx, db);
      }
      return 'current';
    }
    if (state?.target === target) return 'repricing';
    const fresh = { target, after_user: '', rows_done: 0, started_at: nowMs };
    if (state === undefined)
      await tx
        .insertInto('repricing')
        .values({ id: 1, ...fresh, holder: null, lease_until: 0 })
        .execute();
    else await tx.updateTable('repricing').set(fresh).where('id', '=', 1).execute(); // the holder goes on, with the new target
    await clearRepriced(tx, db);
    return 'repricing';
  });
}

/**
 * Takes (or renews) the lease of the repricing under way for `holder` until `untilMs`, unless
 * another holder's lease runs past `nowMs`. Undefined when no repricing is under way.
 */
export async function takeRepricingLease(
  db: Db,
  holder: string,
  nowMs: number,
  untilMs: number,
): Promise<{ state: RepricingState; mine: boolean } | undefined> {
  return locked(db, async (tx) => {
    const state = await stateOf(tx);
    if (state === undefined) return undefined;
    if (state.holder !== null && state.holder !== holder && state.leaseUntil > nowMs) return { state, mine: false };
    await tx.updateTable('repricing').set({ holder, lease_until: untilMs }).where('id', '=', 1).execute();
    return { state: { ...state, holder, leaseUntil: untilMs }, mine: true };
  });
}

/** Gives the lease back (if `holder` still has it), so another process may go on at once. */
export async function releaseRepricingLease(db: Db, holder: string): Promise<void> {
  await locked(db, async (tx) => {
    await tx
      .updateTable('repricing')
      .set({ holder: null, lease_until: 0 })
      .where('id', '=', 1)
      .where('holder', '=', holder)
      .execute();
  });
}

const UPSERT_SQL = `INSERT INTO usage_daily_repriced (user_id, day, source, model, input, cached_input, output, reasoning, cost_micros)`;
const ON_CONFLICT_SQL = `ON CONFLICT (user_id, source, model, day) DO UPDATE SET input = excluded.input, cached_input = excluded.cached_input,
  output = excluded.output, reasoning = excluded.reasoning, cost_micros = excluded.cost_micros`;

/**
 * Stores a batch of new costs of the repricing to `target` held by `holder`, and moves it past
 * `afterUser`, in one transaction. False, storing nothing, when the repricing is no longer that.
 */
export async function saveRepricedBatch(
  db: Db,
  q: {
    readonly holder: string;
    readonly target: string;
    readonly afterUser: string;
    readonly rows: readonly RepricedRow[];
    readonly leaseUntil: number;
  },
): Promise<boolean> {
  const progress = { after_user: q.afterUser, lease_until: q.leaseUntil };
  if (db.dialect === 'sqlite') {
    return inSqliteTransaction(db, () => {
      const s = db.sqlite;
      const moved = s
        .prepare(
          'UPDATE repricing SET after_user = ?, rows_done = rows_done + ?, lease_until = ? WHERE id = 1 AND target = ? AND holder = ?',
        )
        .run(q.afterUser, q.rows.length, q.leaseUntil, q.target, q.holder);
      if (moved.changes !== 1) return false;
      const insert = s.prepare(`${UPSERT_SQL} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ${ON_CONFLICT_SQL}`);
      for (const r of q.rows)
        insert.run(r.userId, r.day, r.source, r.model, r.input, r.cached, r.output, r.reasoning, r.cost);
      return true;
    });
  }
  return locked(db, async (tx) => {
    const moved = await tx
      .updateTable('repricing')
      .set((eb) => ({ ...progress, rows_done: eb('rows_done', '+', BigInt(q.rows.length)) }))
      .where('id', '=', 1)
      .where('target', '=', q.target)
      .where('holder', '=', q.holder)
      .executeTakeFirst();
    if (moved.numUpdatedRows !== 1n) return false;
    if (q.rows.length === 0) return true;
    const r = q.rows;
    await sql`${sql.raw(UPSERT_SQL)}
      SELECT * FROM unnest(${r.map((x) => x.userId)}::text[], ${r.map((x) => x.day)}::int8[], ${r.map((x) => x.source)}::text[], ${r.map((x) => x.model)}::text[],
                           ${r.map((x) => x.input)}::int8[], ${r.map((x) => x.cached)}::int8[], ${r.map((x) => x.output)}::int8[],
                           ${r.map((x) => x.reasoning)}::int8[], ${r.map((x) => x.cost)}::int8[])
      ${sql.raw(ON_CONFLICT_SQL)}`.execute(tx);
    return true;
  });
}
