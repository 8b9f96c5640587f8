/**
 * @fileoverview What a PostgreSQL group write reads first, in one round trip: its uploads' devices'
 * stored days (every raw bucket of each (device, UTC day) an upload touches, device-days.ts), the
 * `usage_daily` and packed `usage_days` rows they may change, the numbers of the uploads'
 * devices, the users' counts of stored raw buckets and teams, and the OTLP state versions to check.
 */
import type { PoolClient } from 'pg';
import { arrayColumns } from '../../db/pg-arrays.js';
import { countsOf } from '../../db/token-columns.js';
import { SELECT_STORED, type StoredStateRow } from '../../db/queries/ingest-postgres.js';
import { preparedName } from '../../db/prepared-name.js';
import { DAY_MS } from '../../domain/calendar.js';
import { dayTotalsOf } from '../../domain/day-slots.js';
import type { TokenCounts } from '../../domain/token-counts.js';
import type { DailyRow } from '../core/read-model-deltas.js';
import type { StoredSums } from '../core/upload.js';
import { daysOf, mentionedGroups, readDay, type MentionedGroups, type StoredDays } from '../core/device-days.js';
import { groupsOf } from '../core/plan.js';
import type { IngestBatch } from '../types.js';

const dailyKey = (userId: string, day: number, source: string, model: string) =>
  `${userId}\u0000${day}\u0000${source}\u0000${model}`;

const ownerKey = (owner: string, n: number) => `${owner}\u0000${n}`;

export interface StoredState {
  /** Each device's stored buckets of the days its upload touches (a day with none stored is empty). */
  deviceDays: Map<string, StoredDays>;
  /** Stored `usage_daily` counts and cost by {@link dailyKey}. */
  daily: Map<string, DailyRow>;
  /** Each (user, day)'s sums ({@link ownerKey}), as stored. */
  days: Map<string, TokenCounts>;
  /** Each (user, day)'s packed `usage_days` row as stored ({@link ownerKey}). */
  packed: Map<string, string>;
  /** Each of the uploads' devices' number (raw buckets are keyed by it); a device without one is gone. */
  nums: Map<string, bigint>;
  /** Each user's stored raw buckets (absent: none), as stored. */
  storedBuckets: Map<string, number>;
  /** The teams of each user with buckets in the group (absent: none), as stored. */
  teams: Map<string, string[]>;
  /** The OTLP state version of each upload's device that carries one to check (`checkOtlpVersion`, db/queries/otlp-writes.ts). */
  otlpVersions: Map<string, bigint>;
}

export async function loadStored(client: PoolClient, batches: readonly IngestBatch[]): Promise<StoredState> {
  const state: StoredState = {
    deviceDays: new Map(),
    daily: new Map(),
    days: new Map(),
    packed: new Map(),
    nums: new Map(),
    storedBuckets: new Map(),
    teams: new Map(),
    otlpVersions: new Map(),
  };
  if (batches.length === 0) return state;
  const deviceDays: { deviceId: string; day: number }[] = [];
  const mentioned = new Map<string, MentionedGroups>();
  const groups: { userId: string; day: number; source: string; model: string }[] = [];
  for (const batch of batches) {
    const deviceGroups = mentionedGroups(batch.buckets);
    mentioned.set(batch.deviceId, deviceGroups);
    const days: StoredDays = new Map();
    for (const day of daysOf(batch.buckets)) {
      days.set(day, readDay(day, undefined, deviceGroups));
      deviceDays.push({ deviceId: batch.deviceId, day });
    }
    state.deviceDays.set(batch.deviceId, days);
    for (const g of groupsOf(batch.buckets))
      groups.push({ userId: batch.userId, day: Math.floor(g.hourStart / DAY_MS), source: g.source, model: g.model });
  }
  const { rows } = await client.query<StoredStateRow>({
    name: preparedName(SELECT_STORED),
    text: SELECT_STORED,
    values: [
      ...arrayColumns(
        deviceDays,
        (d) => d.deviceId,
        (d) => d.day,
      ),
      ...arrayColumns(
        groups,
        (g) => g.userId,
        (g) => g.day,
        (g) => g.source,
        (g) => g.model,
      ),
      // Every upload's device, with buckets or not: its number, or none when it is gone (then refused).
      batches.map((b) => b.deviceId),
      // The uploads whose OTLP state must not have moved since it was read (several processes).
      batches.filter((b) => b.otlp?.version !== undefined).map((b) => b.deviceId),
    ],
  });
  for (const row of rows) {
    const day = Number(row.day);
    if (row.kind === 'b') {
      const deviceGroups = mentioned.get(row.owner);
      if (deviceGroups !== undefined)
        state.deviceDays.get(row.owner)?.set(day, readDay(day, row.packed as string, deviceGroups));
    } else if (row.kind === 'p') {
      const key = ownerKey(row.owner, day);
      const packed = row.packed as string;
      state.packed.set(key, packed);
      state.days.set(key, dayTotalsOf(packed));
    } else if (row.kind === 'n') {
      state.nums.set(row.owner, row.day);
    } else if (row.kind === 'v') {
      state.otlpVersions.set(row.owner, BigInt(row.day));
    } else if (row.kind === 'u') {
      state.storedBuckets.set(row.owner, Number(row.day));
    } else if (row.kind === 't') {
      const teams = state.teams.get(row.owner);
      if (teams === undefined) state.teams.set(row.owner, [row.source]);
      else teams.push(row.source);
    } else {
      state.daily.set(dailyKey(row.owner, day, row.source, row.model), {
        ...countsOf(row),
        costMicros: BigInt(row.cost_micros),
      });
    }
  }
  return state;
}

/** The stored sums a group plans against (core/upload.ts), from what {@link loadStored} read. */
export function storedSums(state: StoredState): StoredSums {
  return {
    storedBuckets: (userId) => state.storedBuckets.get(userId) ?? 0,
    packedDay: (userId, day) => state.packed.get(ownerKey(userId, day)),
    daySums: (userId, day) => state.days.get(ownerKey(userId, day)),
    daily: (userId, day, source, model) => state.daily.get(dailyKey(userId, day, source, model)),
    teamsOf: (userId) => state.teams.get(userId) ?? [],
  };
}
