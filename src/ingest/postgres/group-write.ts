/**
 * @fileoverview The PostgreSQL group write: several uploads (of distinct devices) in one
 * transaction of set-based statements over `unnest` arrays, each statement one shape whatever the
 * group's size (a named prepared statement, planned once per connection). The writer reads what is
 * stored (stored-state.ts) right behind BEGIN and the users' locks; this module plans the uploads
 * against it (core/upload.ts, `GroupPlan`, the same choreography as SQLite's) and sends every
 * write joined into one statement (`sendIngestWrites`, db/queries/ingest-postgres-writes.ts; the
 * teams' rows, when a user is in one, in two more behind it), and the writer's COMMIT follows right
 * behind, unanswered: two round trips a group on a pipelined connection (db/connect.ts).
 *
 * Each user's read-model deltas are merged over the group's uploads (core/group-deltas.ts) and written
 * once, exactly as the SQLite group commit does; every read model but the teams' is keyed by user,
 * and the group holds each of its users' advisory locks (in one order everywhere: sorted user ids,
 * as account deletion and a team's deletion take them), so no other upload, deletion or membership
 * change of those users interleaves. The teams' rows are shared by their members' groups: added to,
 * in key order (db/queries/ingest-postgres-writes.ts), for the teams read under those locks.
 */
import type { PoolClient } from 'pg';
import { sendIngestWrites } from '../../db/queries/ingest-postgres-writes.js';
import { checkOtlpVersion } from '../../db/queries/otlp-writes.js';
import type { IngestBounds } from '../core/bounds.js';
import type { RateTable } from '../core/day-rates.js';
import type { StoredDay } from '../core/device-days.js';
import { GroupPlan, subscriptionRows } from '../core/upload.js';
import { deviceGone, type IngestBatch, type Outcome } from '../types.js';
import { storedSums, type StoredState } from './stored-state.js';

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
  rates: RateTable,
  bounds: IngestBounds,
): { outcomes: Outcome[]; written: Promise<void> } {
  const group = new GroupPlan(storedSums(stored), bounds);
  const outcomes = group.each(batches, (batch) => {
    const deviceNum = stored.nums.get(batch.deviceId);
    if (deviceNum === undefined) throw deviceGone();
    if (batch.otlp?.version !== undefined) checkOtlpVersion(batch.otlp, stored.otlpVersions.get(batch.deviceId) ?? 0n);
    return group.plan(batch, deviceNum, stored.deviceDays.get(batch.deviceId) ?? new Map<number, StoredDay>());
  });
  const uploads = group.uploads();
  if (uploads.length === 0) return { outcomes, written: Promise.resolve() };
  const mentioning = uploads.filter((u) => u.batch.subscriptions !== undefined);
  const models = group.readModels(rates);
  const written = sendIngestWrites(client, {
    deviceDays: uploads.flatMap((u) => u.deviceDays),
    readModels: models.users,
    teams: models.teams,
    uploads: uploads.map((u) => u.event),
    otlp: uploads.flatMap(({ batch }) =>
      batch.otlp ? [{ deviceId: batch.deviceId, now: batch.now, otlp: batch.otlp }] : [],
    ),
    subscriptions: {
      deviceIds: mentioning.map((u) => u.batch.deviceId),
      rows: mentioning.flatMap((u) => subscriptionRows(u.batch)),
    },
  });
  return { outcomes, written };
}
