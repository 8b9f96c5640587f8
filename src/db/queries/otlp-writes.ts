/**
 * @fileoverview The OTLP receiver's state written by the ingest writers, in the transaction that
 * stores the buckets it computed (docs/otlp.md, "From increments to stored buckets"): the running
 * sums, cumulative series values and counted ids of an export. Prepared statements on SQLite, and
 * `unnest` fragments joined into the PostgreSQL group's one statement (ingest-postgres.ts).
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SeriesRow, SumRow } from './otlp.js';
import type { Fragment } from './ingest-postgres.js';
import { arrayColumns, type ArrayElement } from '../pg-arrays.js';

/** What an export changed of its device's OTLP state. */
export interface OtlpStateChanges {
  sums: readonly SumRow[];
  series: readonly SeriesRow[];
  seen: readonly string[];
}

const UPSERT_SUM_SET = `input = excluded.input, cached_input = excluded.cached_input, output = excluded.output,
    reasoning = excluded.reasoning, total = excluded.total, updated_at = excluded.updated_at`;
const UPSERT_SERIES_SET = `start_nanos = excluded.start_nanos, last_value = excluded.last_value, updated_at = excluded.updated_at`;

/** Writes one export's state changes on a SQLite connection (inside the caller's transaction). */
export function prepareOtlpStateWrites(s: BetterSqlite3.Database) {
  const sum = s.prepare(
    `INSERT INTO otlp_sums (device_id, hour_start, source, model, input, cached_input, output, reasoning, total, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (device_id, hour_start, source, model) DO UPDATE SET ${UPSERT_SUM_SET}`,
  );
  const series = s.prepare(
    `INSERT INTO otlp_series (device_id, series_key, start_nanos, last_value, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (device_id, series_key) DO UPDATE SET ${UPSERT_SERIES_SET}`,
  );
  const seen = s.prepare(
    `INSERT INTO otlp_seen (device_id, record_id, seen_at) VALUES (?, ?, ?)
     ON CONFLICT (device_id, record_id) DO NOTHING`,
  );
  return (deviceId: string, changes: OtlpStateChanges, now: number): void => {
    for (const r of changes.sums)
      sum.run(deviceId, r.hourStart, r.source, r.model, r.input, r.cached, r.output, r.reasoning, r.total, now);
    for (const r of changes.series) series.run(deviceId, r.key, r.startNanos, r.lastValue, now);
    for (const id of changes.seen) seen.run(deviceId, id, now);
  };
}

export const PUT_OTLP_SUMS = `
  INSERT INTO otlp_sums (device_id, hour_start, source, model, input, cached_input, output, reasoning, total, updated_at)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[])
  ON CONFLICT (device_id, hour_start, source, model) DO UPDATE SET ${UPSERT_SUM_SET}`;

export const PUT_OTLP_SERIES = `
  INSERT INTO otlp_series (device_id, series_key, start_nanos, last_value, updated_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[])
  ON CONFLICT (device_id, series_key) DO UPDATE SET ${UPSERT_SERIES_SET}`;

export const INSERT_OTLP_SEEN = `
  INSERT INTO otlp_seen (device_id, record_id, seen_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int8[])
  ON CONFLICT (device_id, record_id) DO NOTHING`;

/**
 * The PostgreSQL fragments writing the OTLP state of a group's stored uploads (distinct devices, each
 * change list free of repeated keys, so no statement touches a row twice).
 */
export function otlpStateFragments(
  uploads: ReadonlyArray<{ deviceId: string; now: number; otlp: OtlpStateChanges }>,
): Fragment[] {
  const sums: ArrayElement[][] = [];
  const series: ArrayElement[][] = [];
  const seen: ArrayElement[][] = [];
  for (const { deviceId, now, otlp } of uploads) {
    for (const r of otlp.sums)
      sums.push([deviceId, r.hourStart, r.source, r.model, r.input, r.cached, r.output, r.reasoning, r.total, now]);
    for (const r of otlp.series) series.push([deviceId, r.key, r.startNanos, r.lastValue, now]);
    for (const id of otlp.seen) seen.push([deviceId, id, now]);
  }
  const fragments: Fragment[] = [];
  if (sums.length > 0) fragments.push({ sql: PUT_OTLP_SUMS, params: columns(sums, 10) });
  if (series.length > 0) fragments.push({ sql: PUT_OTLP_SERIES, params: columns(series, 5) });
  if (seen.length > 0) fragments.push({ sql: INSERT_OTLP_SEEN, params: columns(seen, 3) });
  return fragments;
}

/** The `unnest` columns of rows given as tuples of `width` elements. */
function columns(rows: readonly ArrayElement[][], width: number): string[] {
  return arrayColumns(rows, ...Array.from({ length: width }, (_, i) => (row: ArrayElement[]) => row[i]));
}
