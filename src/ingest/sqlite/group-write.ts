/**
 * @fileoverview The SQLite group write, synchronous over the better-sqlite3 connection: prepared
 * statements, no query builder (docs/architecture.md, "SQL").
 *
 * A group of uploads is one transaction in two phases, choreographed engine-free by
 * core/upload.ts (`GroupPlan`), what is stored read as it goes (stored-state.ts):
 * 1. each upload in a savepoint of its own: its device touched (its number; none: gone), its
 *    buckets (the device's stored days they fall in read back, planned against, the bounds
 *    checked, each day it changes written back whole), subscriptions, upload event and OTLP state
 *    (an export's, refused when its version moved: db/queries/otlp-writes.ts). One that fails rolls
 *    back to its savepoint and only that upload fails;
 * 2. the read models of the stored uploads, merged per user: each row written once a group
 *    (`writeReadModels`, db/queries/ingest-sqlite.ts), then the users' teams' rows
 *    (`writeTeamModels`; the users' teams read once per user, core/team-deltas.ts). Checked sums: SQLite turns an integer `+`
 *    that overflows 64 bits into a float without a word. Rows within one UTC day are at most the
 *    day's sums, which the day bound checks before anything is written; the sums over many days
 *    (projects, blocks, leaderboard periods) can still meet rows stored before that bound existed,
 *    so their upserts return the type of the row's sum and anything but an integer fails the
 *    group, which the writer then writes again upload by upload (sqlite/writer.ts). (A RETURNING
 *    costs ~2 µs a statement, so the per-day rows go without.)
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
import { sumsOutOfRange, type IngestBounds } from '../core/bounds.js';
import type { RateTable } from '../core/day-rates.js';
import { GroupPlan, subscriptionRows, type PlannedUpload } from '../core/upload.js';
import { deviceGone, type IngestBatch, type Outcome } from '../types.js';
import { storedDays, storedSums } from './stored-state.js';

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

export function createSqliteGroupWrite(s: BetterSqlite3.Database, bounds: IngestBounds): GroupWrite {
  const st = prepareIngestStatements(s);
  const otlpState = prepareOtlpStateWrites(s);
  const sums = storedSums(st);

  /** Phase 1: one upload's own rows; called inside the group's transaction, so it runs in a savepoint. */
  const storeUpload = s.transaction((batch: IngestBatch, group: GroupPlan): PlannedUpload => {
    const { deviceId, now } = batch;
    const deviceNum = st.touchDevice(deviceId, now);
    if (deviceNum === undefined) throw deviceGone();
    if (batch.otlp?.version !== undefined) checkOtlpVersion(batch.otlp, otlpState.versionOf(deviceId));
    const upload = group.plan(batch, deviceNum, storedDays(st, deviceNum, batch));
    st.putDeviceDays(upload.deviceDays);
    if (batch.subscriptions) st.replaceSubscriptions(deviceId, subscriptionRows(batch));
    st.insertEvent(upload.event);
    if (batch.otlp) otlpState.write(deviceId, batch.otlp, now);
    return upload;
  }) as unknown as (batch: IngestBatch, group: GroupPlan) => PlannedUpload;

  // Runs inside the transaction begun below: a plain function, not a nested transaction, since a
  // savepoint around the whole group would copy every page the read models change into SQLite's
  // sub-journal (docs/decisions.md, "Ingest on SQLite").
  const writeGroup = (batches: readonly IngestBatch[], rates: RateTable): Outcome[] => {
    const group = new GroupPlan(sums, bounds);
    const outcomes = group.each(batches, (batch) => storeUpload(batch, group));
    // Phase 2: the stored uploads' read models, each user's merged (see the file overview).
    const models = group.readModels(rates);
    if (!st.writeReadModels(models.users) || !st.writeTeamModels(models.teams)) throw sumsOutOfRange();
    return outcomes;
  };

  return ({ batches, fingerprint, rates }) => {
    try {
      st.begin(); // the connection's busy timeout is 0: taken elsewhere, this fails at once
    } catch (error) {
      if (isBusy(error)) return { kind: 'busy' };
      throw error;
    }
    try {
      const recorded = fingerprint === null ? null : readCostsFingerprintSync(s);
      if (recorded !== null && recorded !== fingerprint) {
        st.rollback();
        return { kind: 'stale', fingerprint: recorded };
      }
      const outcomes = batches.length > 0 ? writeGroup(batches, rates) : [];
      st.commit();
      return { kind: 'written', outcomes };
    } catch (error) {
      if (s.inTransaction) st.rollback();
      if (isBusy(error)) return { kind: 'busy' }; // rolled back: nothing of the group is stored
      throw error;
    }
  };
}
