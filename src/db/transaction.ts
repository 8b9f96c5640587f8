/** @fileoverview Runs a write transaction the same way on both engines. */
import type { Transaction } from 'kysely';
import type { Db, SqliteDb } from './connect.js';
import type { Database } from './schema.js';
import { whenUnlocked } from './sqlite-busy.js';

export type Tx = Transaction<Database>;

/**
 * Runs `fn` in one transaction. On SQLite the app-wide write lock is held so the synchronous
 * ingest path (which bypasses Kysely) never interleaves with an open Kysely transaction.
 */
export async function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (db.dialect === 'sqlite') {
    return db.writeLock.run(() => db.kysely.transaction().execute(fn));
  }
  return db.kysely.transaction().execute(fn);
}

/**
 * Runs `fn`, synchronous statements on the better-sqlite3 connection, as one `BEGIN IMMEDIATE`
 * transaction holding the app-wide write lock; while another connection holds the database's
 * write lock it is tried again on a timer (sqlite-busy.ts). Nothing else runs on the connection
 * meanwhile, so the reads that skip Kysely there (raw-rows.ts) see all of it or none of it.
 */
export async function inSqliteTransaction<T>(db: SqliteDb, fn: () => T): Promise<T> {
  return db.writeLock.run(() => whenUnlocked(() => db.sqlite.transaction(fn).immediate(), db.busyTimeoutMs));
}
