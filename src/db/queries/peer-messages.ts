/** @fileoverview PostgreSQL LISTEN/NOTIFY for the word instances send each other (src/process/peers-postgres.ts). */
import type pg from 'pg';
import type { PostgresDb } from '../connect.js';

/** Subscribes a dedicated connection to `channel`. */
export async function listenOn(client: pg.Client, channel: string): Promise<void> {
  await client.query(`listen "${channel.replace(/"/g, '""')}"`);
}

/** Sends `payload` to every connection listening on `channel`. */
export async function notifyOn(db: PostgresDb, channel: string, payload: string): Promise<void> {
  await db.pool.query('select pg_notify($1, $2)', [channel, payload]);
}
