/**
 * @fileoverview Migration 0023: the OTLP receiver's state (docs/otlp.md). `device_source_channels`
 * records, per device and source, whether its usage arrives through the CLI (`svc-ingest`) or
 * through OTLP (one channel each). `otlp_sums` keeps the running sums of each (device, half-hour,
 * source, model) OTLP brought (uploaded whole through the ingest writer), `otlp_series` the last
 * value of each cumulative metric series, `otlp_seen` the per-request ids already counted (kept a
 * bounded time, by `seen_at`).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const device = 'devices.id';
      await db.schema
        .createTable('device_source_channels')
        .addColumn('device_id', 'text', (c) => c.notNull().references(device).onDelete('cascade'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('device_source_channels_pk', ['device_id', 'source'])
        .execute();
      await db.schema
        .createTable('otlp_sums')
        .addColumn('device_id', 'text', (c) => c.notNull().references(device).onDelete('cascade'))
        .addColumn('hour_start', 'bigint', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('input', 'bigint', (c) => c.notNull())
        .addColumn('cached_input', 'bigint', (c) => c.notNull())
        .addColumn('output', 'bigint', (c) => c.notNull())
        .addColumn('reasoning', 'bigint', (c) => c.notNull())
        .addColumn('total', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('otlp_sums_pk', ['device_id', 'hour_start', 'source', 'model'])
        .execute();
      await db.schema
        .createTable('otlp_series')
        .addColumn('device_id', 'text', (c) => c.notNull().references(device).onDelete('cascade'))
        .addColumn('series_key', 'text', (c) => c.notNull())
        .addColumn('start_nanos', 'text', (c) => c.notNull())
        .addColumn('last_value', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('otlp_series_pk', ['device_id', 'series_key'])
        .execute();
      await db.schema.createIndex('otlp_series_updated').on('otlp_series').column('updated_at').execute();
      await db.schema
        .createTable('otlp_seen')
        .addColumn('device_id', 'text', (c) => c.notNull().references(device).onDelete('cascade'))
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('seen_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('otlp_seen_pk', ['device_id', 'record_id'])
        .execute();
      await db.schema.createIndex('otlp_seen_at').on('otlp_seen').column('seen_at').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const table of ['otlp_seen', 'otlp_series', 'otlp_sums', 'device_source_channels'])
        await db.schema.dropTable(table).ifExists().execute();
    },
  };
}
