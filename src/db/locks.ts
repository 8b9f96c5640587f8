/**
 * @fileoverview The locks a write transaction takes so that two transactions do not both pass one
 * check (a count against its limit, the last admin) or interleave with a user's uploads. On
 * PostgreSQL each is a transaction-scoped advisory lock on a named key, held until COMMIT or
 * ROLLBACK; on SQLite there is nothing to take, since its write transactions already run one at a
 * time (`BEGIN IMMEDIATE` under the connection's write lock, transaction.ts). Services call these
 * instead of naming keys and dialects themselves.
 */
import type { Db } from './connect.js';
import { advisoryXactLock, userIngestLockKey } from './dialect.js';
import type { Tx } from './transaction.js';

async function hold(db: Db, tx: Tx, key: string): Promise<void> {
  if (db.dialect === 'postgres') await advisoryXactLock(key).execute(tx);
}

/** One user's usage: the lock every upload of the user holds (ingest-postgres.ts); deleting the account waits for it. */
export function lockUserUsage(db: Db, tx: Tx, userId: string): Promise<void> {
  return hold(db, tx, userIngestLockKey(userId));
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
