/**
 * @fileoverview The SQLite group write, synchronous over the better-sqlite3 connection: prepared
 * statements, no query builder (docs/architecture.md, "SQL").
 *
 * A group of uploads is one transaction in two phases:
 * 1. each upload in a savepoint of its own: its buckets (the device's stored days they fall in
 *    read back, planned against, and each day it changes written back whole), its
 *    device's sync time, subscriptions, upload event and OTLP state (an export's, refused when its
 *    version moved: db/queries/otlp-writes.ts). One that fails rolls back to its
 *    savepoint and only that upload fails;
 * 2. the read models of the stored uploads, merged per user (group-deltas.ts): the user's count of
 *    stored raw buckets (`user_storage`), `usage_rollup`,
 *    `project_usage`, then the derived deltas — one write per derived row, a `usage_daily` row
 *    read, summed and repriced as a whole (its change, cost included, added to its `usage_blocks`
 *    row), a packed `usage_days` row read and rewritten. With several uploads of one user in a group these
 *    rows are written once instead of once per upload.
 * Every upload of the group is answered after the COMMIT; if phase 2 or the COMMIT fails, the whole
 * group rolls back and every upload in it fails (nothing of any is stored).
 *
 * The group first takes the database's write lock (`BEGIN IMMEDIATE`), without waiting: when
 * another connection holds it (the app's own, or another server process's on the same file), the
 * write answers `busy` at once, nothing written, and the caller tries again later. Holding the lock
 * it checks that the rates it was given are those of the data the stored costs are priced by now
 * (day-rates.ts); when another process switched that data meanwhile it answers `stale` with the
 * data's fingerprint, nothing written, and the caller resolves the rates again.
 *
 * It runs on whatever thread owns the connection: the ingest writer thread for a database file
 * (sqlite/thread/thread.ts), the app's own thread for an in-memory database (sqlite/writer.ts).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { readCostsFingerprintSync } from '../../db/queries/daily-costs.js';
import { prepareIngestStatements } from '../../db/queries/ingest-sqlite.js';
import { checkOtlpVersion, prepareOtlpStateWrites } from '../../db/queries/otlp-writes.js';
import { isBusy } from '../../db/sqlite-busy.js';
import { countsOf } from '../../db/token-columns.js';
import { addToDay, dayTotalsOf } from '../../domain/day-slots.js';
import type { TokenCounts } from '../../domain/token-counts.js';
import { mergeUploadDeltas, type UploadDeltas, type UserDeltas } from '../core/group-deltas.js';
import {
  checkDayBound,
  checkBucketBound,
  checkStoredBound,
  dayChanges,
  sumOf,
  sumsOutOfRange,
  type IngestBounds,
} from '../core/bounds.js';
import { planIngest, type IngestPlan } from '../core/plan.js';
import {
  daysAfter,
  daysOf,
  mentionedGroups,
  readDay,
  bucketsInHalfHour,
  storedBuckets,
  type StoredDays,
} from '../core/device-days.js';
import { PeriodDeltaSum, type FamilyDelta } from '../../domain/leaderboard-periods.js';
import { BlockSums, deriveReadModelDeltas, nextDailyRow } from '../core/read-model-deltas.js';
import { costerOf, type RateTable } from '../core/day-rates.js';
import { deviceGone, type IngestBatch, type IngestResult, type Outcome, type RowCoster } from '../types.js';

/**
 * Checked sums: SQLite turns an integer `+` that overflows 64 bits into a float without a word.
 * Rows within one UTC day (rollup, daily) are at most the day's sums, which the day bound checks
 * before anything is written (a packed day is summed in JavaScript, as bigint); the sums over many
 * days (leaderboard weeks, months and totals, all-time project totals) can still meet rows stored
 * before that bound existed, so their upserts return the type of the row's sum and anything but an
 * integer fails the write. (A RETURNING costs ~2 µs a statement, so the per-day rows go without.)
 * A failed group is written again upload by upload (sqlite/writer.ts).
 */
function checked(type: unknown): void {
  if (type !== 'integer') throw sumsOutOfRange();
}

/** What a group writes: its uploads and their rates, resolved with the price data named by `fingerprint`. */
export interface GroupWork {
  readonly batches: readonly IngestBatch[];
  /** The data the rates were resolved with; null for fixed rates (nothing to check). */
  readonly fingerprint: string | null;
  readonly rates: RateTable;
}

/** How a group write ended, unless it failed as a whole (then it throws, nothing stored). */
export type GroupReply =
  /** Another connection holds the write lock: nothing was written. */
  | { readonly kind: 'busy' }
  /** The stored costs are priced by other data than the rates': nothing was written. */
  | { readonly kind: 'stale'; readonly fingerprint: string }
  | { readonly kind: 'written'; readonly outcomes: Outcome[] };

/** Writes a group in one transaction (see the file overview). */
export type GroupWrite = (work: GroupWork) => GroupReply;

interface Stored {
  readonly result: IngestResult;
  readonly deltas: UploadDeltas;
  /** The upload's change to each UTC day's sums. */
  readonly changes: Map<number, TokenCounts>;
}

interface DaySums {
  before(userId: string, day: number): TokenCounts | undefined;
  add(userId: string, changes: Map<number, TokenCounts>): void;
  /** The user's stored raw buckets: as stored before the group, plus the group's stored uploads' rows. */
  storedBuckets(userId: string): number;
  addStored(userId: string, rows: number): void;
}

export function createSqliteGroupWrite(s: BetterSqlite3.Database, bounds: IngestBounds): GroupWrite {
  const st = prepareIngestStatements(s);
  const otlpState = prepareOtlpStateWrites(s);

  /** The device's stored buckets of every UTC day the upload's buckets fall in (device-days.ts). */
  const loadStored = (deviceNum: bigint, batch: IngestBatch): StoredDays => {
    const groups = mentionedGroups(batch.buckets);
    const days: StoredDays = new Map();
    for (const day of daysOf(batch.buckets))
      days.set(day, readDay(day, st.selectDeviceDay.get(deviceNum, day), groups));
    return days;
  };

  /** The bounds (bounds.ts), checked before anything of the upload is written; `days` holds each day's sums so far. */
  const checkBounds = (
    batch: IngestBatch,
    stored: StoredDays,
    plan: IngestPlan,
    days: DaySums,
  ): Map<number, TokenCounts> => {
    if (plan.growth) {
      for (const [hourStart, growth] of plan.growth)
        checkBucketBound(hourStart, bucketsInHalfHour(stored, hourStart), growth, bounds.maxBucketsPerHalfHour);
    }
    if (plan.rows > 0) checkStoredBound(days.storedBuckets(batch.userId), plan.rows, bounds.maxStoredBuckets);
    const changes = dayChanges(plan.rollup);
    for (const [day, change] of changes)
      checkDayBound(day, days.before(batch.userId, day), change, bounds.maxTokensPerUserDay);
    return changes;
  };

  /** Each (user, day)'s sums: stored before the group, plus the changes of the group's uploads stored so far. */
  const daySums = (): DaySums => {
    const sums = new Map<string, TokenCounts | undefined>();
    const pendingRows = new Map<string, number>(); // read only for a growing upload
    return {
      storedBuckets(userId) {
        return Number(st.selectStored.get(userId) ?? 0n) + (pendingRows.get(userId) ?? 0);
      },
      addStored(userId, rows) {
        if (rows !== 0) pendingRows.set(userId, (pendingRows.get(userId) ?? 0) + rows);
      },
      before(userId, day) {
        const key = `${userId}\u0000${day}`;
        if (sums.has(key)) return sums.get(key);
        const packed = st.selectDay.get(userId, day);
        const stored = packed === undefined ? undefined : dayTotalsOf(packed);
        sums.set(key, stored);
        return stored;
      },
      add(userId, changes) {
        for (const [day, change] of changes) {
          const key = `${userId}\u0000${day}`;
          sums.set(key, sumOf(sums.get(key), change));
        }
      },
    };
  };

  /** Phase 1: one upload's own rows; called inside the group's transaction, so it runs in a savepoint. */
  const storeUpload = s.transaction((batch: IngestBatch, days: DaySums): Stored => {
    const { userId, deviceId, now } = batch;
    const deviceNum = st.touchDevice.get(now, now, now, deviceId);
    if (deviceNum === undefined) throw deviceGone();
    if (batch.otlp?.version !== undefined) checkOtlpVersion(batch.otlp, otlpState.versionOf(deviceId));
    const stored = loadStored(deviceNum, batch);
    const plan = planIngest(batch.buckets, storedBuckets(stored));
    const changes = checkBounds(batch, stored, plan, days);
    for (const [day, packed] of daysAfter(stored, plan, batch.buckets))
      st.putDeviceDay.run(deviceNum, day, packed, now);
    if (batch.subscriptions) {
      st.clearSubscriptions.run(deviceId);
      batch.subscriptions.forEach((sub, position) => {
        st.insertSubscription.run(
          deviceId,
          position,
          userId,
          sub.tool,
          sub.provider,
          sub.product,
          sub.planType,
          sub.rateLimitTier,
          sub.details,
          now,
        );
      });
    }
    st.insertEvent.run(deviceId, userId, batch.buckets.length, plan.counts.inserted, plan.counts.skipped, now);
    if (batch.otlp) otlpState.write(deviceId, batch.otlp, now);
    return {
      result: plan.counts,
      deltas: { userId, now, rollup: plan.rollup, projects: plan.projects, rows: plan.rows },
      changes,
    };
  }) as unknown as (batch: IngestBatch, days: DaySums) => Stored;

  /** Phase 2: one user's merged read-model deltas. */
  const applyUserDeltas = (user: UserDeltas, costOf: RowCoster): void => {
    const { userId } = user;
    if (user.rows !== 0) st.addStored.run(userId, user.rows);
    for (const r of user.rollup) {
      st.addRollup.run(
        userId,
        r.hourStart,
        r.source,
        r.model,
        r.input,
        r.cached,
        r.output,
        r.reasoning,
        r.total,
        r.billable,
      );
    }
    for (const p of user.projects) {
      checked(
        st.addProject.get(
          userId,
          p.projectKey,
          p.source,
          p.projectRef,
          p.input,
          p.cached,
          p.output,
          p.reasoning,
          p.total,
          p.billable,
          p.updatedAt,
        ),
      );
    }
    const derived = deriveReadModelDeltas(user.rollup);
    const blocks = new BlockSums();
    const periods = new PeriodDeltaSum();
    for (const d of derived.daily) {
      const row = st.selectDaily.get(userId, d.day, d.source, d.model);
      const stored: TokenCounts | undefined = row && countsOf(row);
      const next = nextDailyRow(stored, d, costOf);
      blocks.add(d, row ? BigInt(row.cost_micros) : 0n, next);
      periods.add(d.day, d.model, d.billable, next.costMicros - (row ? BigInt(row.cost_micros) : 0n));
      st.putDaily.run(
        userId,
        d.day,
        d.source,
        d.model,
        next.input,
        next.cached,
        next.output,
        next.reasoning,
        next.total,
        next.billable,
        next.costMicros,
      );
    }
    for (const b of blocks.values()) {
      checked(
        st.addBlock.get(
          userId,
          b.block,
          b.source,
          b.model,
          b.input,
          b.cached,
          b.output,
          b.reasoning,
          b.total,
          b.billable,
          b.costMicros,
        ),
      );
    }
    for (const d of derived.days) st.putDay.run(userId, d.day, addToDay(st.selectDay.get(userId, d.day), d.slots));
    const families = (f: FamilyDelta) => [f.gpt, f.claude, f.other, f.gptCost, f.claudeCost, f.otherCost] as const;
    const { weeks, months, total } = periods.deltas();
    for (const w of weeks) checked(st.addWeek.get(userId, w.period, ...families(w)));
    for (const m of months) checked(st.addMonth.get(userId, m.period, ...families(m)));
    if (total) checked(st.addTotal.get(userId, ...families(total)));
  };

  // Runs inside the transaction begun below: a plain function, not a nested transaction, since a
  // savepoint around the whole group would copy every page the read models change into SQLite's
  // sub-journal (docs/decisions.md, "Ingest on SQLite").
  const writeGroup = (batches: readonly IngestBatch[], costOf: RowCoster): Outcome[] => {
    const stored: UploadDeltas[] = [];
    const days = daySums();
    const outcomes = batches.map((batch): Outcome => {
      try {
        const upload = storeUpload(batch, days);
        days.add(batch.userId, upload.changes);
        days.addStored(batch.userId, upload.deltas.rows);
        stored.push(upload.deltas);
        return { ok: true, result: upload.result };
      } catch (error) {
        return { ok: false, error };
      }
    });
    for (const user of mergeUploadDeltas(stored)) applyUserDeltas(user, costOf);
    return outcomes;
  };

  return ({ batches, fingerprint, rates }) => {
    try {
      st.begin.run(); // the connection's busy timeout is 0: taken elsewhere, this fails at once
    } catch (error) {
      if (isBusy(error)) return { kind: 'busy' };
      throw error;
    }
    try {
      const recorded = fingerprint === null ? null : readCostsFingerprintSync(s);
      if (recorded !== null && recorded !== fingerprint) {
        st.rollback.run();
        return { kind: 'stale', fingerprint: recorded };
      }
      const outcomes = batches.length > 0 ? writeGroup(batches, costerOf(rates)) : [];
      st.commit.run();
      return { kind: 'written', outcomes };
    } catch (error) {
      if (s.inTransaction) st.rollback.run();
      if (isBusy(error)) return { kind: 'busy' }; // rolled back: nothing of the group is stored
      throw error;
    }
  };
}
