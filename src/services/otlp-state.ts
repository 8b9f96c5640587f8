/**
 * @fileoverview The OTLP receiver's per-device state (docs/otlp.md): counted ids, cumulative
 * series and running sums. The database is the source of truth; when this process is the only one
 * writing it (SQLite, one server process) the state read is also kept in memory, so an export reads
 * nothing the process has already read or written (the receiver applies a device's exports one at
 * a time, so what it remembers is what the database holds). Otherwise every export reads it again,
 * after the device's state version: its write is refused if another process wrote the state
 * meanwhile, and the export is counted again (docs/otlp.md, "Several processes").
 */
import type { Db } from '../db/connect.js';
import {
  otlpVersion,
  putOtlpVersion,
  saveOtlpState,
  seenIdsOfDevice,
  seenRecordIds,
  seriesByKey,
  sumsInHalfHours,
  type SeriesRow,
  type SumRow,
} from '../db/queries/otlp.js';
import { otlpStateMoved, type OtlpStateChanges } from '../db/queries/otlp-writes.js';
import { lockUserUsage } from '../db/locks.js';
import { inTransaction } from '../db/transaction.js';
import { BoundedCache } from './bounded-cache.js';
import { groupKey } from './otlp-sums.js';

/** Devices whose state is remembered (emptied when full, read again on demand). */
const DEVICES = 2_000;

interface DeviceState {
  /** Ids known counted; when `allSeen`, every id the database holds for the device, else ids not here are looked up. */
  seen: Set<string>;
  allSeen: boolean | undefined;
  /** Series read or written; null: known absent. */
  series: Map<string, SeriesRow | null>;
  /** Sums of the half-hours read, by half-hour then (half-hour, source, model). */
  hours: Map<number, Map<string, SumRow>>;
}

/** Past these sizes a device's remembered ids, series or half-hours are dropped (and read again on demand). */
const MAX_SEEN = 50_000;
const MAX_SERIES = 10_000;
const MAX_HOURS = 500;

export class OtlpState {
  private readonly devices: BoundedCache<DeviceState> | undefined;

  /** `remember`: this process is the database's only writer of OTLP state. */
  constructor(
    private readonly db: Db,
    remember: boolean,
  ) {
    this.devices = remember ? new BoundedCache<DeviceState>(DEVICES) : undefined;
  }

  private device(deviceId: string): DeviceState | undefined {
    if (!this.devices) return undefined;
    let state = this.devices.get(deviceId);
    if (!state) {
      state = { seen: new Set(), allSeen: undefined, series: new Map(), hours: new Map() };
      this.devices.set(deviceId, state);
    }
    return state;
  }

  /**
   * The device's state version, read before the state an export is counted against; undefined when
   * this process is the only writer (nothing else can move the state).
   */
  async version(deviceId: string): Promise<bigint | undefined> {
    return this.devices ? undefined : otlpVersion(this.db.kysely, deviceId);
  }

  /** Which of these ids the device has already had counted. */
  async seen(deviceId: string, ids: readonly string[]): Promise<Set<string>> {
    const state = this.device(deviceId);
    if (!state) return seenRecordIds(this.db.kysely, deviceId, ids);
    if (state.allSeen === undefined) {
      // First use here: the device's ids read once (at most MAX_SEEN), so fresh ids need no lookup.
      const all = await seenIdsOfDevice(this.db.kysely, deviceId, MAX_SEEN + 1);
      state.allSeen = all.length <= MAX_SEEN;
      if (state.allSeen) for (const id of all) state.seen.add(id);
    }
    if (state.allSeen) return new Set(ids.filter((id) => state.seen.has(id)));
    const unknown = ids.filter((id) => !state.seen.has(id));
    const found = new Set(ids.filter((id) => state.seen.has(id)));
    if (unknown.length > 0) for (const id of await seenRecordIds(this.db.kysely, deviceId, unknown)) found.add(id);
    return found;
  }

  /** The last values of the device's cumulative series with these keys. */
  async series(deviceId: string, keys: readonly string[]): Promise<Map<string, SeriesRow>> {
    const state = this.device(deviceId);
    if (!state) return seriesByKey(this.db.kysely, deviceId, keys);
    const unknown = keys.filter((k) => !state.series.has(k));
    if (unknown.length > 0) {
      if (state.series.size + unknown.length > MAX_SERIES) state.series.clear();
      const read = await seriesByKey(this.db.kysely, deviceId, unknown);
      for (const key of unknown) state.series.set(key, read.get(key) ?? null);
    }
    const found = new Map<string, SeriesRow>();
    for (const key of keys) {
      const row = state.series.get(key);
      if (row) found.set(key, { ...row });
    }
    return found;
  }

  /** The device's running sums in these half-hours (copies: the caller adds to them). */
  async sums(deviceId: string, hourStarts: readonly number[]): Promise<SumRow[]> {
    const state = this.device(deviceId);
    if (!state) return sumsInHalfHours(this.db.kysely, deviceId, hourStarts);
    const unknown = hourStarts.filter((h) => !state.hours.has(h));
    if (unknown.length > 0) {
      if (state.hours.size + unknown.length > MAX_HOURS) state.hours.clear();
      for (const h of unknown) state.hours.set(h, new Map());
      for (const row of await sumsInHalfHours(this.db.kysely, deviceId, unknown))
        state.hours.get(row.hourStart)?.set(groupKey(row.hourStart, row.source, row.model), row);
    }
    const out: SumRow[] = [];
    for (const h of new Set(hourStarts)) for (const row of state.hours.get(h)?.values() ?? []) out.push({ ...row });
    return out;
  }

  /** Saves changes that come with no bucket (the ingest writer stores the others with their buckets). */
  async save(device: { userId: string; deviceId: string }, changes: OtlpStateChanges, now: number): Promise<void> {
    const { deviceId } = device;
    await inTransaction(this.db, async (tx) => {
      if (changes.version !== undefined) {
        // As the ingest writers do for an export with buckets: under the user's upload lock.
        await lockUserUsage(this.db, tx, device.userId);
        if ((await otlpVersion(tx, deviceId)) !== changes.version) throw otlpStateMoved();
        await putOtlpVersion(tx, deviceId, changes.version + 1n);
      }
      await saveOtlpState(tx, deviceId, changes, now);
    });
    this.remember(deviceId, changes);
  }

  /** Takes in changes once they are stored. */
  remember(deviceId: string, changes: OtlpStateChanges): void {
    const state = this.devices?.get(deviceId);
    if (!state) return;
    if (state.seen.size + changes.seen.length > MAX_SEEN) {
      state.seen.clear();
      state.allSeen = false;
    }
    for (const id of changes.seen) state.seen.add(id);
    if (state.series.size + changes.series.length > MAX_SERIES) state.series.clear();
    for (const row of changes.series) state.series.set(row.key, { ...row });
    // A half-hour not read (dropped meanwhile) is read whole again next time, not half remembered.
    for (const row of changes.sums)
      state.hours.get(row.hourStart)?.set(groupKey(row.hourStart, row.source, row.model), { ...row });
  }

  /** Forgets everything remembered (the stored state was pruned). */
  forget(): void {
    this.devices?.clear();
  }
}
