/**
 * @fileoverview Pure: the three bounds an upload must keep, checked by both writers before anything
 * of the upload is written (docs/decisions.md, "Ingest").
 *
 * - Tokens per user and UTC day: after the upload, none of the six sums of the user's day (across
 *   devices, sources, models and projects) may pass `maxTokensPerUserDay`, unless the upload
 *   lowers it. A count is at most 10^12 but a user may have many devices, models and projects;
 *   bounding the day bounds every sum the read models keep (a user's all-time total is at most
 *   the bound times the days since 2020), so no 64-bit sum can overflow.
 * - Stored buckets per device and half-hour (the bucket bound): an upload may not leave more than
 *   `maxBucketsPerHalfHour` distinct (source, model, project) buckets in one of the device's
 *   half-hours, unless it removes as many as it adds there. An upload reads back the whole of each
 *   of its device's days it touches (device-days.ts), so that read stays at most 48 × the bound
 *   buckets a day touched.
 * - Stored buckets per user: an upload may not leave the account's devices (revoked ones too)
 *   holding more than `maxStoredBuckets` raw buckets in all, unless it does not add to their
 *   count (it replaces or removes buckets). Without it one account could fill the disk: revoking a
 *   device frees its device slot but keeps its buckets. Past it the upload is a conflict (409): the
 *   upload is well formed, the account is full.
 */
import { addCounts, COUNT_FIELDS, type TokenCounts } from '../../domain/token-counts.js';
import { Conflict, InvalidInput, type FieldRef } from '../../domain/errors.js';
import type { RollupDelta } from './plan.js';
import { DAY_MS } from '../../domain/calendar.js';

export interface IngestBounds {
  readonly maxTokensPerUserDay: bigint;
  readonly maxBucketsPerHalfHour: number;
  readonly maxStoredBuckets: number;
}

/** Generous defaults: far above any real use, far below what could overflow. */
export const DEFAULT_INGEST_BOUNDS: IngestBounds = {
  maxTokensPerUserDay: 10n ** 13n,
  maxBucketsPerHalfHour: 200,
  maxStoredBuckets: 5_000_000,
};

/** A bound is passed by the upload's buckets together: the fault names the `hourly` list as a whole. */
const UPLOAD: FieldRef = { field: 'hourly' };

function beyondBound(detail: string, message: string): InvalidInput {
  return new InvalidInput([{ at: UPLOAD, message }], { detail });
}

/** The upload's change to each UTC day's six sums (from its rollup deltas), by epoch day. */
export function dayChanges(rollup: readonly RollupDelta[]): Map<number, TokenCounts> {
  const days = new Map<number, TokenCounts>();
  for (const r of rollup) {
    const day = Math.floor(r.hourStart / DAY_MS);
    const d = days.get(day);
    if (d === undefined)
      days.set(day, {
        input: r.input,
        cached: r.cached,
        output: r.output,
        reasoning: r.reasoning,
        total: r.total,
        billable: r.billable,
      });
    else addCounts(d, r);
  }
  return days;
}

/** Throws an invalid input when `before + change` passes the bound in a column the change raises. */
export function checkDayBound(day: number, before: TokenCounts | undefined, change: TokenCounts, bound: bigint): void {
  for (const f of COUNT_FIELDS) {
    if (change[f] > 0n && (before?.[f] ?? 0n) + change[f] > bound) {
      const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
      throw beyondBound(
        `This upload would bring the account's tokens on ${date} (UTC) past ${bound}, the most one account may record in a day.`,
        `more than ${bound} tokens on ${date}`,
      );
    }
  }
}

/** Throws an invalid input when a half-hour holding `stored` buckets would pass the bound by `growth` more. */
export function checkBucketBound(hourStart: number, stored: number, growth: number, bound: number): void {
  if (growth > 0 && stored + growth > bound) {
    const at = new Date(hourStart).toISOString();
    throw beyondBound(
      `This upload would store more than ${bound} (source, model, project) buckets for the half-hour ${at} on this device.`,
      `more than ${bound} buckets for ${at}`,
    );
  }
}

/**
 * Throws a conflict when an account holding `stored` raw buckets would pass the bound by `growth`
 * more (the upload's rows added minus rows removed). An upload that adds nothing to the count
 * always passes, whatever is stored.
 */
export function checkStoredBound(stored: number, growth: number, bound: number): void {
  if (growth > 0 && stored + growth > bound) {
    const n = (x: number) => x.toLocaleString('en-US');
    throw new Conflict(
      `This account already stores ${n(stored)} usage buckets and this upload would add ${n(growth)} more, ` +
        `past ${n(bound)}, the most this server keeps for one account (its devices' buckets count, revoked ` +
        `devices' too). Nothing of this upload was stored; uploads that only update buckets already stored ` +
        `still work. To make room, export your usage and ask the server's administrator to raise ` +
        `MAX_STORED_BUCKETS_PER_USER or to remove old data.`,
    );
  }
}

/** `a + b` (either may be absent). */
export function sumOf(a: TokenCounts | undefined, b: TokenCounts | undefined): TokenCounts | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const out = { ...a };
  addCounts(out, b);
  return out;
}

/** The error for an upload whose sums would leave the 64-bit range (only rows stored before the day bound existed can get there). */
export function sumsOutOfRange(): InvalidInput {
  return beyondBound("This upload would bring the account's stored sums past what they can hold.", 'sums out of range');
}
