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
  /**
   * The device's state version read before the state these changes were counted against (absent
   * when this process is the database's only writer): the write is refused if it moved, and
   * moves it by one.
   */
  version?: bigint | undefined;
}

/** The code of {@link otlpStateMoved}'s error (it crosses the SQLite writer thread as data). */
export const OTLP_STATE_MOVED = 'otlp-state-moved';

/**
 * What the writers answer for an export counted against a device state that another process wrote
 * since it was read (its version moved): nothing of it stored; the receiver counts it again
 * (docs/otlp.md, "Several processes").
 */
export function otlpStateMoved(): Error {
  return Object.assign(new Error('The OTLP state of the device changed meanwhile.'), { code: OTLP_STATE_MOVED });
}

/** Whether a write failed as {@link otlpStateMoved}. */
export function isOtlpStateMoved(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === OTLP_STATE_MOVED;
}

/** Refuses changes counted against an older version of the device's state (`stored`: its version now). */
export function checkOtlpVersion(changes: OtlpStateChanges | undefined, stored: bigint): void {
  const expected = changes?.version;
  if (expected !== undefined && expected !== stored) throw otlpStateMoved();
}

const UPSERT_SUM_SET = `input = excluded.input, cached_input = excluded.cached_input, output = excluded.output,
    reasoning = excluded.reasoning, total = excluded.total, updated_at = excluded.updated_at`;
const UPSERT_SERIES_SET = `start_nanos = excluded.start_nanos, last_value = excluded.last_value, updated_at = excluded.updated_at`;

/** Reads a device's OTLP state version and writes one export's state changes on a SQLite connection (inside the caller's transaction). */
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
  const selectVersion = s.prepare('SELECT version FROM otlp_versions WHERE device_id = ?').pluck();
  const version = s.prepare(
    `INSERT INTO otlp_versions (device_id, version) VALUES (?, ?)
     ON CONFLICT (device_id) DO UPDATE SET version = excluded.version`,
  );
  const write = (deviceId: string, changes: OtlpStateChanges, now: number): void => {
    if (changes.version !== undefined) version.run(deviceId, changes.version + 1n);
    for (const r of changes.sums)
      sum.run(deviceId, r.hourStart, r.source, r.model, r.input, r.cached, r.output, r.reasoning, r.total, now);
    for (const r of changes.series) series.run(deviceId, r.key, r.startNanos, r.lastValue, now);
    for (const id of changes.seen) seen.run(deviceId, id, now);
  };
  /** The device's state version (0 before its first counted write). */
  const versionOf = (deviceId: string): bigint => (selectVersion.get(deviceId) as bigint | undefined) ?? 0n;
  return { write, versionOf };
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

export const PUT_OTLP_VERSIONS = `
  INSERT INTO otlp_versions (device_id, version)
  SELECT * FROM unnest($1::text[], $2::int8[])
  ON CONFLICT (device_id) DO UPDATE SET version = excluded.version`;

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
  const versions: ArrayElement[][] = [];
  for (const { deviceId, now, otlp } of uploads) {
    if (otlp.version !== undefined) versions.push([deviceId, otlp.version + 1n]);
    for (const r of otlp.sums)
      sums.push([deviceId, r.hourStart, r.source, r.model, r.input, r.cached, r.output, r.reasoning, r.total, now]);
    for (const r of otlp.series) series.push([deviceId, r.key, r.startNanos, r.lastValue, now]);
    for (const id of otlp.seen) seen.push([deviceId, id, now]);
  }
  const fragments: Fragment[] = [];
  if (sums.length > 0) fragments.push({ sql: PUT_OTLP_SUMS, params: columns(sums, 10) });
  if (series.length > 0) fragments.push({ sql: PUT_OTLP_SERIES, params: columns(series, 5) });
  if (seen.length > 0) fragments.push({ sql: INSERT_OTLP_SEEN, params: columns(seen, 3) });
  if (versions.length > 0) fragments.push({ sql: PUT_OTLP_VERSIONS, params: columns(versions, 2) });
  return fragments;
}

/** The `unnest` columns of rows given as tuples of `width` elements. */
function columns(rows: readonly ArrayElement[][], width: number): string[] {
  return arrayColumns(rows, ...Array.from({ length: width }, (_, i) => (row: ArrayElement[]) => row[i]));
}
