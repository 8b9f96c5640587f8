/**
 * @fileoverview Migration 0011: `devices.last_upload_at` — the time of the device's latest upload,
 * set by the ingest writers as they touch the device — replaces the `(device_id, created_at)` index
 * on `ingest_events` (migration 0008) that the devices list read it through.
 *
 * Why: that index took one entry an upload in a B-tree ordered by device, so every upload dirtied a
 * page of its own (~0.7 WAL frames an upload on SQLite when a group's uploads come from different
 * devices: 40 % of the frames of today's uploads, 11 % of a first sync's). The devices row is
 * written by every upload anyway. The column is filled from the upload records still kept.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('devices').addColumn('last_upload_at', 'bigint').execute();
      await sql`update devices set last_upload_at =
                  (select max(e.created_at) from ingest_events e where e.device_id = devices.id)`.execute(db);
      await db.schema.dropIndex('ingest_events_device').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema
        .createIndex('ingest_events_device')
        .on('ingest_events')
        .columns(['device_id', 'created_at'])
        .execute();
      await db.schema.alterTable('devices').dropColumn('last_upload_at').execute();
    },
  };
}
