/**
 * @fileoverview The few places where SQLite and PostgreSQL differ, kept together.
 * Everything else is the same Kysely code on both engines.
 */
import { sql, type CreateTableBuilder, type RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** Clustered storage for tables read by key ranges: SQLite `WITHOUT ROWID` (measured faster). */
export function clustered<TB extends string, C extends string>(
  dialect: DialectName,
  builder: CreateTableBuilder<TB, C>,
): CreateTableBuilder<TB, C> {
  return dialect === 'sqlite' ? builder.modifyEnd(sql`without rowid`) : builder;
}

/**
 * The advisory-lock key that serialises one user's writes to their usage on PostgreSQL: uploads
 * and deleting the account.
 */
export function userIngestLockKey(userId: string): string {
  return `ingest:${userId}`;
}

/**
 * The advisory-lock key that orders uploads and the end of a repricing on PostgreSQL: every upload
 * holds it shared while it prices and writes its rows, the swap of repriced costs exclusively
 * (db/queries/daily-costs.ts).
 */
export const COSTS_LOCK_KEY = 'pricing:stored-costs';

/** The advisory-lock key of the repricing's state row (db/queries/repricing.ts). */
export const REPRICING_LOCK_KEY = 'pricing:repricing';

/** A transaction-scoped exclusive lock on a key (PostgreSQL only; SQLite serialises writers). */
export function advisoryXactLock(key: string): RawBuilder<unknown> {
  return sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}
