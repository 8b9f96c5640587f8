/**
 * @fileoverview The choreography of a group of uploads, engine-free and written once for both
 * writers (sqlite/group-write.ts, postgres/group-write.ts). Per upload, against what is stored and
 * what the group's earlier uploads stored: the plan (plan.ts), the bucket bound, the stored-bucket
 * bound and the day bound (bounds.ts, past one the upload fails alone), each changed day of its
 * device packed whole (device-days.ts), then its change to the day sums and the stored-bucket
 * count, which the next uploads' bounds see. Per group: each user's read-model deltas merged
 * (group-deltas.ts), derived and priced (read-model-deltas.ts) into the rows each table gets
 * (db/queries/ingest-rows.ts).
 *
 * An engine says how it reads what is stored ({@link StoredSums}) and stores what is planned: SQLite
 * reads it as it goes inside its transaction and writes each upload in a savepoint; PostgreSQL reads
 * it first, in one round trip, and writes the whole group in one statement.
 */
import type {
  DeviceDayRow,
  GroupReadModels,
  SubscriptionRow,
  UploadRow,
  UserReadModels,
} from '../../db/queries/ingest-rows.js';
import { addToDay } from '../../domain/day-slots.js';
import { PeriodDeltaSum } from '../../domain/leaderboard-periods.js';
import type { TokenCounts } from '../../domain/token-counts.js';
import type { IngestBatch, IngestResult, Outcome } from '../types.js';
import { costerOf, type RateTable } from './day-rates.js';
import { checkBucketBound, checkDayBound, checkStoredBound, dayChanges, sumOf, type IngestBounds } from './bounds.js';
import { bucketsInHalfHour, daysAfter, storedBuckets, type StoredDays } from './device-days.js';
import { mergeUploadDeltas, type UploadDeltas } from './group-deltas.js';
import { planIngest } from './plan.js';
import { BlockSums, deriveReadModelDeltas, nextDailyRow, type DailyRow } from './read-model-deltas.js';
import { teamDeltas, type MemberDeltas } from './team-deltas.js';

/** What is stored, as the engine reads it (before the group wrote anything of its read models). */
export interface StoredSums {
  /** The user's count of stored raw buckets (migration 0017). */
  storedBuckets(userId: string): number;
  /** The user's packed `usage_days` row of one UTC day, if any. */
  packedDay(userId: string, day: number): string | undefined;
  /** The user's six sums of one UTC day (from the packed row), if any. */
  daySums(userId: string, day: number): TokenCounts | undefined;
  /** A stored `usage_daily` row, if any. */
  daily(userId: string, day: number, source: string, model: string): DailyRow | undefined;
  /**
   * The teams the user is a member of, whose rows take the user's deltas (team-deltas.ts). Read
   * once per user and group, holding what keeps them from changing until the group commits (SQLite:
   * the write transaction; PostgreSQL: the user's ingest lock, which membership changes take).
   */
  teamsOf(userId: string): readonly string[];
}

/** An upload planned and within its bounds: what it stores of its own, and what it changes. */
export interface PlannedUpload {
  readonly batch: IngestBatch;
  readonly result: IngestResult;
  /** Each day of the device the upload changes, packed whole. */
  readonly deviceDays: DeviceDayRow[];
  readonly event: UploadRow;
  /** The upload's change to each UTC day's sums. */
  readonly changes: Map<number, TokenCounts>;
  readonly deltas: UploadDeltas;
}

/** One upload's subscriptions as rows (its device's whole list, in order); none when it did not mention them. */
export function subscriptionRows(batch: IngestBatch): SubscriptionRow[] {
  const { deviceId, userId, now } = batch;
  return (batch.subscriptions ?? []).map((s, position) => ({ deviceId, userId, now, position, ...s }));
}

/** A group's uploads planned one after the other (see the file overview). */
export class GroupPlan {
  /** Each (user, day)'s sums: as stored, plus the group's stored uploads' changes (read on first use). */
  private readonly sums = new Map<string, TokenCounts | undefined>();
  /** Each user's stored raw buckets added by the group's stored uploads. */
  private readonly addedRows = new Map<string, number>();
  private readonly storedUploads: PlannedUpload[] = [];

  constructor(
    private readonly read: StoredSums,
    private readonly bounds: IngestBounds,
  ) {}

  /**
   * Plans an upload of the device numbered `deviceNum` against its stored days and checks its
   * bounds; throws a 400 or 409 past one. Nothing counts for the next uploads until {@link stored}.
   */
  plan(batch: IngestBatch, deviceNum: bigint, days: StoredDays): PlannedUpload {
    const { bounds } = this;
    const { userId, now } = batch;
    const plan = planIngest(batch.buckets, storedBuckets(days));
    if (plan.growth) {
      for (const [hourStart, growth] of plan.growth)
        checkBucketBound(hourStart, bucketsInHalfHour(days, hourStart), growth, bounds.maxBucketsPerHalfHour);
    }
    if (plan.rows > 0) checkStoredBound(this.storedBuckets(userId), plan.rows, bounds.maxStoredBuckets);
    const changes = dayChanges(plan.rollup);
    for (const [day, change] of changes)
      checkDayBound(day, this.daySums(userId, day), change, bounds.maxTokensPerUserDay);
    const deviceDays: DeviceDayRow[] = [];
    for (const [day, packed] of daysAfter(days, plan, batch.buckets)) deviceDays.push({ deviceNum, day, packed, now });
    const { inserted, skipped } = plan.counts;
    return {
      batch,
      result: plan.counts,
      deviceDays,
      event: { deviceId: batch.deviceId, userId, bucketCount: batch.buckets.length, inserted, skipped, now },
      changes,
      deltas: { userId, now, rollup: plan.rollup, projects: plan.projects, rows: plan.rows },
    };
  }

  /** The upload was stored: the next uploads' bounds count its changes, and the read models take its deltas. */
  stored(upload: PlannedUpload): void {
    const { userId } = upload.batch;
    for (const [day, change] of upload.changes) {
      const key = `${userId}\u0000${day}`;
      this.sums.set(key, sumOf(this.daySums(userId, day), change));
    }
    const { rows } = upload.deltas;
    if (rows !== 0) this.addedRows.set(userId, (this.addedRows.get(userId) ?? 0) + rows);
    this.storedUploads.push(upload);
  }

  /**
   * Stores each upload with `store` (which plans it with {@link plan} and throws when it fails
   * alone), then counts it as stored; answers each upload's outcome, in order.
   */
  each(batches: readonly IngestBatch[], store: (batch: IngestBatch) => PlannedUpload): Outcome[] {
    return batches.map((batch): Outcome => {
      let upload: PlannedUpload;
      try {
        upload = store(batch);
      } catch (error) {
        return { ok: false, error };
      }
      this.stored(upload);
      return { ok: true, result: upload.result };
    });
  }

  /** The uploads stored so far, in order. */
  uploads(): readonly PlannedUpload[] {
    return this.storedUploads;
  }

  /**
   * Every read-model row the stored uploads change, each user's deltas merged so each row is
   * written once a group; `usage_daily` rows repriced whole with the group's `rates`; the users'
   * teams' rows, their rollup and daily changes (the daily ones with their stored cost's) summed per
   * team. Reads what is stored (`StoredSums.daily`, `packedDay`, `teamsOf`): call it before any of
   * these rows is written.
   */
  readModels(rates: RateTable): GroupReadModels {
    const costOf = costerOf(rates);
    const members: MemberDeltas[] = [];
    const users = mergeUploadDeltas(this.storedUploads.map((u) => u.deltas)).map((user): UserReadModels => {
      const { userId } = user;
      const derived = deriveReadModelDeltas(user.rollup);
      const blocks = new BlockSums();
      const periods = new PeriodDeltaSum();
      const teams = this.read.teamsOf(userId);
      const teamDaily: MemberDeltas['daily'][number][] = [];
      const daily = derived.daily.map((d) => {
        const before = this.read.daily(userId, d.day, d.source, d.model);
        const next = nextDailyRow(before, d, costOf);
        const storedCost = before?.costMicros ?? 0n;
        blocks.add(d, storedCost, next);
        periods.add(d.day, d.model, d.billable, next.costMicros - storedCost);
        if (teams.length > 0) teamDaily.push({ ...d, costMicros: next.costMicros - storedCost });
        return next;
      });
      if (teams.length > 0) members.push({ teams, rollup: user.rollup, daily: teamDaily });
      const days = derived.days.map((d) => ({
        day: d.day,
        packed: addToDay(this.read.packedDay(userId, d.day), d.slots),
      }));
      const moved = periods.deltas();
      return {
        userId,
        storedRows: user.rows,
        rollup: user.rollup,
        projects: user.projects,
        daily,
        blocks: blocks.values(),
        days,
        weeks: moved.weeks,
        months: moved.months,
        total: moved.total,
      };
    });
    return { users, teams: teamDeltas(members) };
  }

  private storedBuckets(userId: string): number {
    return this.read.storedBuckets(userId) + (this.addedRows.get(userId) ?? 0);
  }

  private daySums(userId: string, day: number): TokenCounts | undefined {
    const key = `${userId}\u0000${day}`;
    if (this.sums.has(key)) return this.sums.get(key);
    const stored = this.read.daySums(userId, day);
    this.sums.set(key, stored);
    return stored;
  }
}
