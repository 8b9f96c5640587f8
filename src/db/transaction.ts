/** @fileoverview Runs a write transaction the same way on both engines. */
import type { Transaction } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';

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
