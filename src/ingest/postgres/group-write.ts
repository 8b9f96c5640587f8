/**
 * @fileoverview The PostgreSQL group write: several uploads (of distinct devices) in one
 * transaction of set-based statements over `unnest` arrays, each statement one shape whatever the
 * group's size (a named prepared statement, planned once per connection). The writer reads what is
 * stored (postgres/stored-state.ts) right behind BEGIN and the users' locks; this module plans the
 * uploads against it and sends every write joined into one statement (db/queries/ingest-postgres.ts
 * has the statements), and the writer's COMMIT follows right behind, unanswered: two round trips a
 * group on a pipelined connection (db/connect.ts).
 *
 * Each user's read-model deltas are merged over the group's uploads (group-deltas.ts) and written
 * once, exactly as the SQLite group commit does; every read model is keyed by user, and the group
 * holds each of its users' advisory locks (in one order everywhere: sorted user ids, as account
 * deletion takes them), so no other upload or deletion of those users interleaves.
 */
import type { PoolClient } from 'pg';
import { preparedName } from '../../db/prepared-name.js';
import { addToDay } from '../../domain/day-slots.js';
import type { TokenCounts } from '../../domain/token-counts.js';
import { mergeUploadDeltas, type UploadDeltas } from '../core/group-deltas.js';
import {
  addPending,
  checkDayBound,
  checkBucketBound,
  checkStoredBound,
  dayChanges,
  type IngestBounds,
} from '../core/bounds.js';
import { planIngest, type IngestPlan } from '../core/plan.js';
import { daysAfter, bucketsInHalfHour, storedBuckets, type StoredDay, type StoredDays } from '../core/device-days.js';
import { PeriodDeltaSum, type FamilyDelta, type PeriodDelta } from '../../domain/leaderboard-periods.js';
import { BlockSums, deriveReadModelDeltas, nextDailyRow, type BlockDelta } from '../core/read-model-deltas.js';
import { deviceGone, type IngestBatch, type IngestResult, type Outcome, type RowCoster } from '../types.js';
import {
  ADD_BLOCKS,
  ADD_MONTHS,
  ADD_PROJECTS,
  ADD_ROLLUP,
  ADD_STORED,
  ADD_TOTALS,
  ADD_WEEKS,
  CLEAR_SUBSCRIPTIONS,
  combineWrites,
  INSERT_EVENTS,
  INSERT_SUBSCRIPTIONS,
  PUT_DAILY,
  PUT_DAYS,
  PUT_DEVICE_DAYS,
  TOUCH_DEVICES,
  type Fragment,
} from '../../db/queries/ingest-postgres.js';
import { arrayColumns } from '../../db/pg-arrays.js';
import { checkOtlpVersion, otlpStateFragments } from '../../db/queries/otlp-writes.js';
import { dailyKey, ownerKey, type StoredState } from './stored-state.js';

/** Plans an upload against the stored state and checks its bounds (bounds.ts); throws a 400 or 409 past one. */
function planChecked(
  batch: IngestBatch,
  stored: StoredState,
  bounds: IngestBounds,
): { plan: IngestPlan; changes: Map<number, TokenCounts>; deviceNum: bigint; storedDays: StoredDays } {
  const deviceNum = stored.nums.get(batch.deviceId);
  if (deviceNum === undefined) throw deviceGone();
  if (batch.otlp?.version !== undefined) checkOtlpVersion(batch.otlp, stored.otlpVersions.get(batch.deviceId) ?? 0n);
  const storedDays = stored.deviceDays.get(batch.deviceId) ?? new Map<number, StoredDay>();
  const plan = planIngest(batch.buckets, storedBuckets(storedDays));
  if (plan.growth) {
    for (const [hourStart, growth] of plan.growth)
      checkBucketBound(hourStart, bucketsInHalfHour(storedDays, hourStart), growth, bounds.maxBucketsPerHalfHour);
  }
  if (plan.rows > 0) checkStoredBound(stored.storedBuckets.get(batch.userId) ?? 0, plan.rows, bounds.maxStoredBuckets);
  const changes = dayChanges(plan.rollup);
  for (const [day, change] of changes)
    checkDayBound(day, stored.days.get(ownerKey(batch.userId, day)), change, bounds.maxTokensPerUserDay);
  return { plan, changes, deviceNum, storedDays };
}

/**
 * Sends the writes of a group of uploads inside the caller's transaction, which holds every one of
 * their users' locks and read `stored` under them. The uploads' devices must be distinct (a
 * device's second upload must see its first). An upload past a bound fails alone, nothing of it
 * written. Answers each upload's outcome at once, and `written`, settled when the database has
 * answered every write: the caller may queue COMMIT behind them first (a failed write leaves the
 * transaction aborted, and COMMIT then ends it as a rollback).
 */
export function writeGroup(
  client: PoolClient,
  batches: readonly IngestBatch[],
  stored: StoredState,
  costOf: RowCoster,
  bounds: IngestBounds,
): { outcomes: Outcome[]; written: Promise<void> } {
  const outcomes: Outcome[] = [];
  const written: { batch: IngestBatch; result: IngestResult }[] = [];
  const deltas: UploadDeltas[] = [];
  const deviceDays: { deviceNum: bigint; day: number; packed: string; now: number }[] = [];
  for (const batch of batches) {
    let checked: ReturnType<typeof planChecked>;
    try {
      checked = planChecked(batch, stored, bounds);
    } catch (error) {
      outcomes.push({ ok: false, error });
      continue;
    }
    const { plan, changes, deviceNum, storedDays } = checked;
    for (const [day, change] of changes) addPending(stored.days, ownerKey(batch.userId, day), change);
    if (plan.rows !== 0)
      stored.storedBuckets.set(batch.userId, (stored.storedBuckets.get(batch.userId) ?? 0) + plan.rows);
    for (const [day, packed] of daysAfter(storedDays, plan, batch.buckets))
      deviceDays.push({ deviceNum, day, packed, now: batch.now });
    deltas.push({
      userId: batch.userId,
      now: batch.now,
      rollup: plan.rollup,
      projects: plan.projects,
      rows: plan.rows,
    });
    outcomes.push({ ok: true, result: plan.counts });
    written.push({ batch, result: plan.counts });
  }
  if (written.length === 0) return { outcomes, written: Promise.resolve() };
  const fragments: Fragment[] = [];
  if (deviceDays.length > 0) {
    fragments.push({
      sql: PUT_DEVICE_DAYS,
      params: arrayColumns(
        deviceDays,
        (d) => d.deviceNum,
        (d) => d.day,
        (d) => d.packed,
        (d) => d.now,
      ),
    });
  }
  const rollup: { userId: string; r: UploadDeltas['rollup'][number] }[] = [];
  const projects: { userId: string; p: ReturnType<typeof mergeUploadDeltas>[number]['projects'][number] }[] = [];
  const daily: { userId: string; day: number; source: string; model: string; next: ReturnType<typeof nextDailyRow> }[] =
    [];
  const blocks: { userId: string; b: BlockDelta }[] = [];
  const days: { userId: string; day: number; packed: string }[] = [];
  const weeks: { userId: string; p: PeriodDelta }[] = [];
  const months: { userId: string; p: PeriodDelta }[] = [];
  const totals: { userId: string; p: FamilyDelta }[] = [];
  const storedRows: { userId: string; rows: number }[] = [];
  for (const user of mergeUploadDeltas(deltas)) {
    const { userId } = user;
    if (user.rows !== 0) storedRows.push({ userId, rows: user.rows });
    for (const r of user.rollup) rollup.push({ userId, r });
    for (const p of user.projects) projects.push({ userId, p });
    const derived = deriveReadModelDeltas(user.rollup);
    const userBlocks = new BlockSums();
    const periods = new PeriodDeltaSum();
    for (const d of derived.daily) {
      const before = stored.daily.get(dailyKey(userId, d.day, d.source, d.model));
      const next = nextDailyRow(before, d, costOf);
      periods.add(d.day, d.model, d.billable, next.costMicros - (before?.costMicros ?? 0n));
      daily.push({ userId, day: d.day, source: d.source, model: d.model, next });
      userBlocks.add(d, before?.costMicros ?? 0n, next);
    }
    for (const b of userBlocks.values()) blocks.push({ userId, b });
    for (const d of derived.days)
      days.push({ userId, day: d.day, packed: addToDay(stored.packed.get(ownerKey(userId, d.day)), d.slots) });
    const moved = periods.deltas();
    for (const p of moved.weeks) weeks.push({ userId, p });
    for (const p of moved.months) months.push({ userId, p });
    if (moved.total) totals.push({ userId, p: moved.total });
  }
  if (storedRows.length > 0) {
    fragments.push({
      sql: ADD_STORED,
      params: arrayColumns(
        storedRows,
        (x) => x.userId,
        (x) => x.rows,
      ),
    });
  }
  if (rollup.length > 0) {
    fragments.push({
      sql: ADD_ROLLUP,
      params: arrayColumns(
        rollup,
        (x) => x.userId,
        (x) => x.r.hourStart,
        (x) => x.r.source,
        (x) => x.r.model,
        (x) => x.r.input,
        (x) => x.r.cached,
        (x) => x.r.output,
        (x) => x.r.reasoning,
        (x) => x.r.total,
        (x) => x.r.billable,
      ),
    });
  }
  if (projects.length > 0) {
    fragments.push({
      sql: ADD_PROJECTS,
      params: arrayColumns(
        projects,
        (x) => x.userId,
        (x) => x.p.updatedAt,
        (x) => x.p.projectKey,
        (x) => x.p.source,
        (x) => x.p.projectRef,
        (x) => x.p.input,
        (x) => x.p.cached,
        (x) => x.p.output,
        (x) => x.p.reasoning,
        (x) => x.p.total,
        (x) => x.p.billable,
      ),
    });
  }
  if (daily.length > 0) {
    fragments.push({
      sql: PUT_DAILY,
      params: arrayColumns(
        daily,
        (x) => x.userId,
        (x) => x.day,
        (x) => x.source,
        (x) => x.model,
        (x) => x.next.input,
        (x) => x.next.cached,
        (x) => x.next.output,
        (x) => x.next.reasoning,
        (x) => x.next.total,
        (x) => x.next.billable,
        (x) => x.next.costMicros,
      ),
    });
  }
  if (blocks.length > 0) {
    fragments.push({
      sql: ADD_BLOCKS,
      params: arrayColumns(
        blocks,
        (x) => x.userId,
        (x) => x.b.block,
        (x) => x.b.source,
        (x) => x.b.model,
        (x) => x.b.input,
        (x) => x.b.cached,
        (x) => x.b.output,
        (x) => x.b.reasoning,
        (x) => x.b.total,
        (x) => x.b.billable,
        (x) => x.b.costMicros,
      ),
    });
  }
  if (days.length > 0)
    fragments.push({
      sql: PUT_DAYS,
      params: arrayColumns(
        days,
        (x) => x.userId,
        (x) => x.day,
        (x) => x.packed,
      ),
    });
  if (weeks.length > 0)
    fragments.push({
      sql: ADD_WEEKS,
      params: arrayColumns(
        weeks,
        (x) => x.userId,
        (x) => x.p.period,
        (x) => x.p.gpt,
        (x) => x.p.claude,
        (x) => x.p.other,
        (x) => x.p.gptCost,
        (x) => x.p.claudeCost,
        (x) => x.p.otherCost,
      ),
    });
  if (months.length > 0)
    fragments.push({
      sql: ADD_MONTHS,
      params: arrayColumns(
        months,
        (x) => x.userId,
        (x) => x.p.period,
        (x) => x.p.gpt,
        (x) => x.p.claude,
        (x) => x.p.other,
        (x) => x.p.gptCost,
        (x) => x.p.claudeCost,
        (x) => x.p.otherCost,
      ),
    });
  if (totals.length > 0)
    fragments.push({
      sql: ADD_TOTALS,
      params: arrayColumns(
        totals,
        (x) => x.userId,
        (x) => x.p.gpt,
        (x) => x.p.claude,
        (x) => x.p.other,
        (x) => x.p.gptCost,
        (x) => x.p.claudeCost,
        (x) => x.p.otherCost,
      ),
    });
  fragments.push({
    sql: TOUCH_DEVICES,
    params: arrayColumns(
      written,
      (x) => x.batch.deviceId,
      (x) => x.batch.now,
    ),
  });
  const events: Fragment = {
    sql: INSERT_EVENTS,
    params: arrayColumns(
      written,
      (x) => x.batch.deviceId,
      (x) => x.batch.userId,
      (x) => x.batch.buckets.length,
      (x) => x.result.inserted,
      (x) => x.result.skipped,
      (x) => x.batch.now,
    ),
  };
  const otlp = written.flatMap(({ batch }) =>
    batch.otlp ? [{ deviceId: batch.deviceId, now: batch.now, otlp: batch.otlp }] : [],
  );
  if (otlp.length > 0) fragments.push(...otlpStateFragments(otlp));
  const combined = combineWrites(fragments, events);
  const writes: Promise<unknown>[] = [
    client.query({ name: preparedName(combined.sql), text: combined.sql, values: combined.params }),
    ...writeSubscriptions(
      client,
      written.map((x) => x.batch),
    ),
  ];
  return { outcomes, written: Promise.all(writes).then(() => undefined) };
}

/** Sends the replacement of the subscriptions of the uploads that mention them (two statements, only then). */
function writeSubscriptions(client: PoolClient, batches: readonly IngestBatch[]): Promise<unknown>[] {
  const mentioning = batches.filter((b) => b.subscriptions !== undefined);
  if (mentioning.length === 0) return [];
  const clear = client.query({
    name: preparedName(CLEAR_SUBSCRIPTIONS),
    text: CLEAR_SUBSCRIPTIONS,
    values: [mentioning.map((b) => b.deviceId)],
  });
  const rows = mentioning.flatMap((b) => (b.subscriptions ?? []).map((s, position) => ({ b, s, position })));
  if (rows.length === 0) return [clear];
  const insert = client.query({
    name: preparedName(INSERT_SUBSCRIPTIONS),
    text: INSERT_SUBSCRIPTIONS,
    values: arrayColumns(
      rows,
      (x) => x.b.deviceId,
      (x) => x.b.userId,
      (x) => x.b.now,
      (x) => x.position,
      (x) => x.s.tool,
      (x) => x.s.provider,
      (x) => x.s.product,
      (x) => x.s.planType,
      (x) => x.s.rateLimitTier,
      (x) => x.s.details,
    ),
  });
  return [clear, insert];
}
