/**
 * @fileoverview Draining the queue to the server: batches of at most 500 buckets (never
 * splitting a group), acknowledged one batch at a time so a crash or an outage resumes where it
 * stopped; a sync ping when there was nothing to send.
 */
import { ApiError, defaultApiOptions, postJson, type ApiOptions } from './api.js';
import { isRecord } from './json-file.js';
import type { QueuedGroup, UploadQueue, WireBucket } from './queue.js';

export const MAX_BATCH = 500;

export interface UploadResult {
  batches: number;
  buckets: number;
  inserted: number;
  skipped: number;
  pending: number;
  /** Groups the server refused as invalid (400), dropped so they cannot block the queue. */
  rejected: { group: string; reason: string }[];
  error?: ApiError;
}

/** Consecutive groups packed into batches of at most `max` buckets. */
export function packBatches(groups: readonly QueuedGroup[], max = MAX_BATCH): QueuedGroup[][] {
  const batches: QueuedGroup[][] = [];
  let cur: QueuedGroup[] = [];
  let n = 0;
  for (const g of groups) {
    if (n + g.b.length > max && cur.length > 0) {
      batches.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(g);
    n += g.b.length;
  }
  if (cur.length > 0) batches.push(cur);
  return batches;
}

export function ingestUrl(server: string): string {
  return `${server.replace(/\/+$/, '')}/functions/svc-ingest`;
}

export function pingUrl(server: string): string {
  return `${server.replace(/\/+$/, '')}/functions/svc-sync-ping`;
}

export async function drainQueue(
  queue: UploadQueue,
  server: string,
  token: string,
  opts: ApiOptions = defaultApiOptions,
  onBatch?: (sentBuckets: number, totalBuckets: number) => void,
): Promise<UploadResult> {
  const groups = queue.pending();
  const total = groups.reduce((n, g) => n + g.b.length, 0);
  const result: UploadResult = { batches: 0, buckets: 0, inserted: 0, skipped: 0, pending: total, rejected: [] };
  if (groups.length === 0) return result;
  const { ack } = queue.compactTo(groups);
  let acked = 0;
  const done = (batch: readonly QueuedGroup[]): void => {
    acked += batch.length;
    ack(acked);
    const n = batch.reduce((k, g) => k + g.b.length, 0);
    result.pending -= n;
    onBatch?.(result.buckets, total);
  };
  /** Send one batch; a 400 is narrowed down by halving so one bad group cannot block the queue. */
  const send = async (batch: readonly QueuedGroup[]): Promise<boolean> => {
    const hourly: WireBucket[] = batch.flatMap((g) => g.b);
    let answer: unknown;
    try {
      answer = await postJson(ingestUrl(server), { hourly }, token, opts);
    } catch (err) {
      const error = err instanceof ApiError ? err : new ApiError(String(err), 0, true);
      if (error.status === 400 && batch.length > 1) {
        const mid = Math.ceil(batch.length / 2);
        return (await send(batch.slice(0, mid))) && (await send(batch.slice(mid)));
      }
      if (error.status === 400) {
        result.rejected.push({ group: batch[0]?.g ?? '', reason: error.message });
        done(batch);
        return true;
      }
      result.error = error;
      return false;
    }
    result.batches += 1;
    result.buckets += hourly.length;
    if (isRecord(answer)) {
      if (typeof answer['inserted'] === 'number') result.inserted += answer['inserted'];
      if (typeof answer['skipped'] === 'number') result.skipped += answer['skipped'];
    }
    done(batch);
    return true;
  };
  for (const batch of packBatches(groups)) {
    if (!(await send(batch))) break;
  }
  return result;
}

/** Record a sync heartbeat; failures are reported, never fatal. */
export async function syncPing(
  server: string,
  token: string,
  opts: ApiOptions = defaultApiOptions,
): Promise<ApiError | undefined> {
  try {
    await postJson(pingUrl(server), undefined, token, { ...opts, attempts: Math.min(opts.attempts, 2) });
    return undefined;
  } catch (err) {
    return err instanceof ApiError ? err : new ApiError(String(err), 0, true);
  }
}
