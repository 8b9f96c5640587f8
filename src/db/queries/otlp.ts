/** @fileoverview The OTLP receiver's state: channels per (device, source), running sums, cumulative series, seen ids. */
import type { Queryable } from '../connect.js';

/** Rows per statement (well under both engines' bound-parameter limits). */
const CHUNK = 200;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/** The channel each of a device's sources is recorded with (sources never seen are absent). */
export async function channelsOf(
  db: Queryable,
  deviceId: string,
  sources: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (sources.length === 0) return found;
  const rows = await db
    .selectFrom('device_source_channels')
    .select(['source', 'channel'])
    .where('device_id', '=', deviceId)
    .where('source', 'in', [...sources])
    .execute();
  for (const row of rows) found.set(row.source, row.channel);
  return found;
}

/** Records `channel` for each source of the device that has none yet, then answers every source's channel. */
export async function claimChannels(
  db: Queryable,
  deviceId: string,
  sources: readonly string[],
  channel: string,
  now: number,
): Promise<Map<string, string>> {
  if (sources.length === 0) return new Map();
  await db
    .insertInto('device_source_channels')
    .values(sources.map((source) => ({ device_id: deviceId, source, channel, created_at: now })))
    .onConflict((oc) => oc.columns(['device_id', 'source']).doNothing())
    .execute();
  return channelsOf(db, deviceId, sources);
}

/** The channels of the sources of several devices (the Devices page). */
export async function channelsOfDevices(
  db: Queryable,
  deviceIds: readonly string[],
): Promise<Array<{ device_id: string; source: string; channel: string }>> {
  if (deviceIds.length === 0) return [];
  return db
    .selectFrom('device_source_channels')
    .select(['device_id', 'source', 'channel'])
    .where('device_id', 'in', [...deviceIds])
    .orderBy('source')
    .execute();
}

/** Which of these record ids the device has already had counted. */
export async function seenRecordIds(db: Queryable, deviceId: string, ids: readonly string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const part of chunks(ids)) {
    const rows = await db
      .selectFrom('otlp_seen')
      .select('record_id')
      .where('device_id', '=', deviceId)
      .where('record_id', 'in', part)
      .execute();
    for (const row of rows) seen.add(row.record_id);
  }
  return seen;
}

/** Up to `limit` of the ids the device has had counted (any order). */
export async function seenIdsOfDevice(db: Queryable, deviceId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('otlp_seen')
    .select('record_id')
    .where('device_id', '=', deviceId)
    .limit(limit)
    .execute();
  return rows.map((r) => r.record_id);
}

export interface SumRow {
  hourStart: number;
  source: string;
  model: string;
  input: bigint;
  cached: bigint;
  output: bigint;
  reasoning: bigint;
  total: bigint;
}

/** The device's running sums in the given half-hours (the caller picks its (source, model) pairs). */
export async function sumsInHalfHours(
  db: Queryable,
  deviceId: string,
  hourStarts: readonly number[],
): Promise<SumRow[]> {
  const out: SumRow[] = [];
  for (const part of chunks(hourStarts)) {
    const rows = await db
      .selectFrom('otlp_sums')
      .select(['hour_start', 'source', 'model', 'input', 'cached_input', 'output', 'reasoning', 'total'])
      .where('device_id', '=', deviceId)
      .where('hour_start', 'in', part.map(BigInt))
      .execute();
    for (const r of rows)
      out.push({
        hourStart: Number(r.hour_start),
        source: r.source,
        model: r.model,
        input: BigInt(r.input),
        cached: BigInt(r.cached_input),
        output: BigInt(r.output),
        reasoning: BigInt(r.reasoning),
        total: BigInt(r.total),
      });
  }
  return out;
}

export interface SeriesRow {
  key: string;
  startNanos: string;
  lastValue: bigint;
}

/** The last values of the device's cumulative series with these keys. */
export async function seriesByKey(
  db: Queryable,
  deviceId: string,
  keys: readonly string[],
): Promise<Map<string, SeriesRow>> {
  const found = new Map<string, SeriesRow>();
  for (const part of chunks(keys)) {
    const rows = await db
      .selectFrom('otlp_series')
      .select(['series_key', 'start_nanos', 'last_value'])
      .where('device_id', '=', deviceId)
      .where('series_key', 'in', part)
      .execute();
    for (const r of rows)
      found.set(r.series_key, { key: r.series_key, startNanos: r.start_nanos, lastValue: BigInt(r.last_value) });
  }
  return found;
}

/** Writes what an export changed: its sums, its series' last values and its counted ids (in the caller's transaction). */
export async function saveOtlpState(
  db: Queryable,
  deviceId: string,
  state: { sums: readonly SumRow[]; series: readonly SeriesRow[]; seen: readonly string[] },
  now: number,
): Promise<void> {
  for (const part of chunks(state.sums)) {
    await db
      .insertInto('otlp_sums')
      .values(
        part.map((s) => ({
          device_id: deviceId,
          hour_start: s.hourStart,
          source: s.source,
          model: s.model,
          input: s.input,
          cached_input: s.cached,
          output: s.output,
          reasoning: s.reasoning,
          total: s.total,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['device_id', 'hour_start', 'source', 'model']).doUpdateSet((eb) => ({
          input: eb.ref('excluded.input'),
          cached_input: eb.ref('excluded.cached_input'),
          output: eb.ref('excluded.output'),
          reasoning: eb.ref('excluded.reasoning'),
          total: eb.ref('excluded.total'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
  for (const part of chunks(state.series)) {
    await db
      .insertInto('otlp_series')
      .values(
        part.map((s) => ({
          device_id: deviceId,
          series_key: s.key,
          start_nanos: s.startNanos,
          last_value: s.lastValue,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['device_id', 'series_key']).doUpdateSet((eb) => ({
          start_nanos: eb.ref('excluded.start_nanos'),
          last_value: eb.ref('excluded.last_value'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
  for (const part of chunks(state.seen)) {
    await db
      .insertInto('otlp_seen')
      .values(part.map((id) => ({ device_id: deviceId, record_id: id, seen_at: now })))
      .onConflict((oc) => oc.columns(['device_id', 'record_id']).doNothing())
      .execute();
  }
}

/** How many times the device's OTLP state was written (0 before the first: migration 0026). */
export async function otlpVersion(db: Queryable, deviceId: string): Promise<bigint> {
  const row = await db
    .selectFrom('otlp_versions')
    .select('version')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row === undefined ? 0n : BigInt(row.version);
}

/** Sets the device's OTLP state version (in the caller's transaction). */
export async function putOtlpVersion(db: Queryable, deviceId: string, version: bigint): Promise<void> {
  await db
    .insertInto('otlp_versions')
    .values({ device_id: deviceId, version })
    .onConflict((oc) => oc.column('device_id').doUpdateSet({ version }))
    .execute();
}

/** Forgets counted ids and cumulative series not touched since `before` (bounded retention). */
export async function pruneOtlpState(db: Queryable, before: number): Promise<void> {
  await db.deleteFrom('otlp_seen').where('seen_at', '<', BigInt(before)).execute();
  await db.deleteFrom('otlp_series').where('updated_at', '<', BigInt(before)).execute();
}
