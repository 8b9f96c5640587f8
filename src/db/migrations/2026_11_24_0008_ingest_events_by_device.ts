/**
 * @fileoverview Migration 0008: an index on `ingest_events (device_id, created_at)`, so the devices
 * list reads each device's latest upload without scanning every upload record (docs/devices.md).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createIndex('ingest_events_device')
        .on('ingest_events')
        .columns(['device_id', 'created_at'])
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('ingest_events_device').ifExists().execute();
    },
  };
}
