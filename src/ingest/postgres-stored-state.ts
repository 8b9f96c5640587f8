/**
 * @fileoverview What a PostgreSQL group write reads first, in one round trip: the stored variants
 * of its uploads' half-hours (counted, for the bucket bound), the `usage_daily` and packed
 * `usage_days` rows they may change, and the numbers of the uploads' devices; a second only for a
 * half-hour crowded past the bound.
 */
import type { PoolClient } from 'pg';
import { arrayColumns } from '../db/pg-arrays.js';
import { countsOf } from '../db/token-columns.js';
import type { StoredRow } from '../db/queries/ingest-rows.js';
import { SELECT_GROUP_VARIANTS, SELECT_STORED } from '../db/queries/ingest-postgres.js';
import { preparedName } from '../db/prepared-name.js';
import { DAY_MS } from '../domain/calendar.js';
import { dayTotalsOf } from '../domain/day-slots.js';
import type { TokenCounts } from '../domain/token-counts.js';
import type { IngestBounds } from './bounds.js';
import { groupsOf, type StoredVariant } from './plan.js';
import { toStoredVariant } from './stored-row.js';
import type { IngestBatch } from './types.js';

export const dailyKey = (userId: string, day: number, source: string, model: string) =>
  `${userId}\u0000${day}\u0000${source}\u0000${model}`;

export const ownerKey = (owner: string, n: number) => `${owner}\u0000${n}`;

export interface StoredState {
  /** Stored variants by device. */
  variants: Map<string, StoredVariant[]>;
  /** Stored `usage_daily` counts by {@link dailyKey}. */
  daily: Map<string, TokenCounts>;
  /** Stored rows by (device, half-hour) ({@link ownerKey}), counted up to the bound + 1. */
  rows: Map<string, number>;
  /** Each (user, day)'s sums ({@link ownerKey}); the group's stored uploads add theirs as it goes. */
  days: Map<string, TokenCounts>;
  /** Each (user, day)'s packed `usage_days` row as stored ({@link ownerKey}). */
  packed: Map<string, string>;
  /** Each of the uploads' devices' number (raw buckets are keyed by it); a device without one is gone. */
  nums: Map<string, bigint>;
}

export async function loadStored(
  client: PoolClient,
  batches: readonly IngestBatch[],
  bounds: IngestBounds,
): Promise<StoredState> {
  const groups: { deviceId: string; userId: string; hourStart: number; source: string; model: string }[] = [];
  for (const batch of batches) {
    for (const g of groupsOf(batch.buckets)) groups.push({ deviceId: batch.deviceId, userId: batch.userId, ...g });
  }
  const state: StoredState = {
    variants: new Map(),
    daily: new Map(),
    rows: new Map(),
    days: new Map(),
    packed: new Map(),
    nums: new Map(),
  };
  if (batches.length === 0) return state;
  const limit = bounds.maxRowsPerHalfHour + 1;
  const { rows } = await client.query<StoredRow & { kind: 'b' | 'd' | 'p' | 'n'; owner: string }>({
    name: preparedName(SELECT_STORED),
    text: SELECT_STORED,
    values: [
      ...arrayColumns(
        groups,
        (g) => g.deviceId,
        (g) => g.hourStart,
      ),
      ...arrayColumns(
        groups,
        (g) => g.userId,
        (g) => Math.floor(g.hourStart / DAY_MS),
        (g) => g.source,
        (g) => g.model,
      ),
      limit,
      // Every upload's device, with buckets or not: its number, or none when it is gone (then refused).
      batches.map((b) => b.deviceId),
    ],
  });
  for (const g of groups) state.rows.set(ownerKey(g.deviceId, g.hourStart), 0);
  for (const row of rows) {
    if (row.kind === 'b') {
      const key = ownerKey(row.owner, Number(row.hour_start));
      state.rows.set(key, (state.rows.get(key) ?? 0) + 1);
      addVariant(state, row.owner, row);
    } else if (row.kind === 'p') {
      const key = ownerKey(row.owner, Number(row.hour_start));
      const packed = row.project_ref as string;
      state.packed.set(key, packed);
      state.days.set(key, dayTotalsOf(packed));
    } else if (row.kind === 'n') {
      state.nums.set(row.owner, row.hour_start);
    } else {
      state.daily.set(dailyKey(row.owner, Number(row.hour_start), row.source, row.model), countsOf(row));
    }
  }
  await readCrowdedHalfHours(client, groups, state, limit);
  return state;
}

function addVariant(state: StoredState, deviceId: string, row: StoredRow): void {
  let list = state.variants.get(deviceId);
  if (list === undefined) state.variants.set(deviceId, (list = []));
  list.push(toStoredVariant(row));
}

/**
 * A half-hour that returned `limit` rows may hold more (rows stored before the bucket bound was
 * lowered): what was read of it may miss the upload's own groups, so its variants are read again
 * group by group. Its row count stays `limit`, which is all the bound needs to know.
 */
async function readCrowdedHalfHours(
  client: PoolClient,
  groups: readonly { deviceId: string; hourStart: number; source: string; model: string }[],
  state: StoredState,
  limit: number,
): Promise<void> {
  // A half-hour's rows are read by the device's number, so only a device that has one can be crowded.
  const crowded = groups.flatMap((g) => {
    const deviceNum = state.nums.get(g.deviceId);
    const count = state.rows.get(ownerKey(g.deviceId, g.hourStart)) ?? 0;
    return deviceNum !== undefined && count >= limit ? [{ ...g, deviceNum }] : [];
  });
  if (crowded.length === 0) return;
  const isCrowded = new Set(crowded.map((g) => ownerKey(g.deviceId, g.hourStart)));
  for (const [deviceId, list] of state.variants) {
    state.variants.set(
      deviceId,
      list.filter((v) => !isCrowded.has(ownerKey(deviceId, v.hourStart))),
    );
  }
  const { rows } = await client.query<StoredRow & { owner: string }>({
    name: preparedName(SELECT_GROUP_VARIANTS),
    text: SELECT_GROUP_VARIANTS,
    values: arrayColumns(
      crowded,
      (g) => g.deviceId,
      (g) => g.deviceNum,
      (g) => g.hourStart,
      (g) => g.source,
      (g) => g.model,
    ),
  });
  for (const row of rows) addVariant(state, row.owner, row);
}
