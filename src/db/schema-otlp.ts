/** @fileoverview The OTLP receiver's tables (migration 0023), as Kysely sees them; part of schema.ts's `Database`. */
import type { ColumnType } from 'kysely';

/** As schema.ts's: 64-bit integers read back as bigint (repeated here so the two files do not import each other). */
type Int = ColumnType<bigint, bigint | number, bigint | number>;

/** Which channel (`cli` or `otlp`) a device's source arrives through; the first one used keeps it. */
export interface DeviceSourceChannelsTable {
  device_id: string;
  source: string;
  channel: string;
  created_at: Int;
}

/** The running sums OTLP brought to one (device, half-hour, source, model); the stored bucket is uploaded from them. */
export interface OtlpSumsTable {
  device_id: string;
  hour_start: Int;
  source: string;
  model: string;
  input: Int;
  cached_input: Int;
  output: Int;
  reasoning: Int;
  total: Int;
  updated_at: Int;
}

/** The last value of one cumulative metric series (its key hashes resource, scope, metric and attributes). */
export interface OtlpSeriesTable {
  device_id: string;
  series_key: string;
  start_nanos: string;
  last_value: Int;
  updated_at: Int;
}

/** A per-request id (or record hash) already counted for a device. */
export interface OtlpSeenTable {
  device_id: string;
  record_id: string;
  seen_at: Int;
}

/** How many times the device's OTLP state was written (read before it, checked when writing it; migration 0026). */
export interface OtlpVersionsTable {
  device_id: string;
  version: Int;
}
