/** @fileoverview Per-upload audit records ("tracker events") and their retention. */
import type { Queryable } from '../connect.js';

export async function countIngestEventsBefore(db: Queryable, cutoffMs: number): Promise<number> {
  const row = await db
    .selectFrom('ingest_events')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('created_at', '<', BigInt(cutoffMs))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes upload events older than the cutoff; usage tables are never touched. */
export async function deleteIngestEventsBefore(db: Queryable, cutoffMs: number): Promise<number> {
  const result = await db.deleteFrom('ingest_events').where('created_at', '<', BigInt(cutoffMs)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
