/**
 * @fileoverview Migration 0026: `otlp_versions`, a counter per device that every write of the
 * device's OTLP state moves by one. When several processes write the database, an export reads the
 * counter before the state it counts against, and its write (under the user's upload lock) is
 * refused if the counter moved meanwhile; the export is then counted again against what is stored
 * (docs/otlp.md, "Several processes").
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('otlp_versions')
        .addColumn('device_id', 'text', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('otlp_versions').ifExists().execute();
    },
  };
}
