/**
 * @fileoverview The locks services take, so that no service names a lock key or a dialect.
 *
 * Most are taken inside a write transaction so that two transactions do not both pass one check (a
 * count against its limit, the last admin, a team's members) or interleave with a user's uploads.
 * On PostgreSQL each is a transaction-scoped advisory lock on a named key, held until COMMIT or
 * ROLLBACK; on SQLite there is nothing to take, since its write transactions already run one at a
 * time (`BEGIN IMMEDIATE` under the connection's write lock, transaction.ts).
 *
 * The leaderboard refresh is held across processes for longer than one write transaction (a
 * refresh writes its snapshot in several): PostgreSQL, an advisory lock held by a transaction open
 * around the work; SQLite (several server processes on one file), a lease row with an expiry, so a
 * crashed holder's runs out.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './connect.js';
import { advisoryXactLock, COSTS_LOCK_KEY, userIngestLockKey } from './dialect.js';
import { releaseRefreshLease, tryTakeRefreshLease } from './queries/leaderboard.js';
import { inTransaction, type Tx } from './transaction.js';

async function hold(db: Db, tx: Tx, key: string): Promise<void> {
  if (db.dialect === 'postgres') await advisoryXactLock(key).execute(tx);
}

/**
 * One user's usage: what every upload of the user holds (ingest-postgres.ts), taken in the same
 * order: the stored costs shared (the repricing swap holds them exclusively), then the user's lock.
 * Deleting the account and changing the user's team memberships (which move their usage and stored
 * costs in or out of the team's rows, db/queries/team-usage-model.ts) wait for uploads and the swap.
 */
export async function lockUserUsage(db: Db, tx: Tx, userId: string): Promise<void> {
  if (db.dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock_shared(hashtextextended(${COSTS_LOCK_KEY}, 0))`.execute(tx);
  await advisoryXactLock(userIngestLockKey(userId)).execute(tx);
}

/**
 * Several users' usage (a team's members, while the team is deleted): taken in sorted order, as the
 * ingest writer takes a group's (ingest-postgres.ts), so the two never deadlock.
 */
export async function lockUsersUsage(db: Db, tx: Tx, userIds: readonly string[]): Promise<void> {
  if (db.dialect !== 'postgres' || userIds.length === 0) return;
  const keys = [...new Set(userIds)].sort().map(userIngestLockKey);
  // One statement, the keys in their order (as ingest-postgres.ts takes a group's).
  await sql`select pg_advisory_xact_lock(hashtextextended(k, 0))
              from unnest(${keys}::text[]) with ordinality as t(k, n) order by n`.execute(tx);
}

/** One user's devices, while a new one is checked against the user's device limit and added. */
export function lockUserDevices(db: Db, tx: Tx, userId: string): Promise<void> {
  return hold(db, tx, `tokentally:devices:${userId}`);
}

/** One user's API tokens, while a new one is checked against the per-user limit and added. */
export function lockUserApiTokens(db: Db, tx: Tx, userId: string): Promise<void> {
  return hold(db, tx, `tokentally:api-tokens:${userId}`);
}

/** The instance's admins, while a change is checked against the last-admin rule. */
export function lockInstanceAdmins(db: Db, tx: Tx): Promise<void> {
  return hold(db, tx, 'accounts:instance-admins');
}

/** One team's members, while a membership change (a role, a removal, a join by invite) is checked and made. */
export function lockTeam(db: Db, tx: Tx, teamId: string): Promise<void> {
  return hold(db, tx, `tokentally:team:${teamId}`);
}

const LEADERBOARD_REFRESH_KEY = 'tokentally:leaderboard-refresh';
/** How long a SQLite refresh lease lasts (a crashed holder's runs out), and how often a waiter looks. */
const LEASE_MS = 10 * 60_000;
const LEASE_POLL_MS = 25;

/** Runs `fn` holding the SQLite refresh lease, waiting (polling) until it is free. */
async function withRefreshLease<T>(db: Db, now: () => number, fn: () => Promise<T>): Promise<T> {
  const holder = randomUUID();
  for (;;) {
    const at = now();
    if (await inTransaction(db, (tx) => tryTakeRefreshLease(tx, holder, at, at + LEASE_MS))) break;
    await new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS));
  }
  try {
    return await fn();
  } finally {
    await releaseRefreshLease(db.kysely, holder);
  }
}

/**
 * Runs `fn` as the one leaderboard refresh computing across processes. `fn` writes on its own
 * (the transaction that holds the PostgreSQL lock only holds it); `now` dates the SQLite lease.
 */
export function holdingLeaderboardRefresh<T>(db: Db, now: () => number, fn: () => Promise<T>): Promise<T> {
  if (db.dialect === 'sqlite') return withRefreshLease(db, now, fn);
  return db.kysely.transaction().execute(async (lockTx) => {
    await advisoryXactLock(LEADERBOARD_REFRESH_KEY).execute(lockTx);
    return fn();
  });
}

/**
 * Runs `fn` in a write transaction while no leaderboard refresh computes, in any process: on
 * PostgreSQL the refresh's lock is taken inside `fn`'s transaction, on SQLite the lease around it.
 */
export function inTransactionWithoutLeaderboardRefresh<T>(
  db: Db,
  now: () => number,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (db.dialect === 'sqlite') return withRefreshLease(db, now, () => inTransaction(db, fn));
  return db.kysely.transaction().execute(async (tx) => {
    await advisoryXactLock(LEADERBOARD_REFRESH_KEY).execute(tx);
    return fn(tx);
  });
}
