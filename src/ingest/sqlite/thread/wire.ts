/**
 * @fileoverview The messages between the SQLite ingest writer (sqlite/writer.ts) and its thread
 * (sqlite/thread/thread.ts). Messages are copied by the structured clone algorithm, which keeps bigints,
 * Maps and plain objects but not an error's class: an upload's error crosses as data and is made
 * again on the other side, so an upload past a bound is still an `InvalidInput` (a 400) or a
 * `Conflict` (a 409, the account's stored buckets) there. A
 * group's uploads cross packed (sqlite/thread/packing.ts).
 */
import { Conflict, InvalidInput, Unauthenticated, type FieldFault } from '../../../domain/errors.js';
import type { IngestBounds } from '../../core/bounds.js';
import type { CheckpointPolicy } from '../../../db/sqlite-checkpoints.js';
import type { GroupReply, GroupWork } from '../group-write.js';
import { packBatches, unpackBatches, type PackedBatches } from './packing.js';
import type { IngestBatch, IngestResult, Outcome } from '../../types.js';

/** What the thread is started with. */
export interface ThreadData {
  readonly file: string;
  readonly bounds: IngestBounds;
  readonly checkpoints: CheckpointPolicy;
  /** One word shared with the app's thread: {@link THREAD_WAITING} or {@link THREAD_WRITING}. */
  readonly signal: Int32Array;
}

/**
 * The thread has written everything sent to it and waits: the app's thread sends the next upload at
 * once instead of at the end of its event-loop turn. The app's thread sets
 * {@link THREAD_WRITING} when it sends, the thread sets this when it has nothing left. A word read a
 * moment too early or too late costs a group sent a turn later or a small group sent at once, never
 * an upload: every group is a message the thread takes in order.
 */
export const THREAD_WAITING = 0;
export const THREAD_WRITING = 1;

/** A shared word for {@link ThreadData.signal}. */
export function threadSignal(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** What the checkpoint thread (sqlite/thread/checkpoint-thread.ts) is started with. */
export interface CheckpointThreadData {
  readonly file: string;
  readonly everyMs: number;
}

/** A group to write as it crosses: its uploads packed, unless a count does not fit. */
export interface WireWork extends Omit<GroupWork, 'batches'> {
  readonly batches: PackedBatches | readonly IngestBatch[];
}

/** To the thread: a group to write, or the word to close its connection and end. */
export type ToThread = { readonly id: number; readonly work: WireWork } | { readonly id: number; readonly close: true };

export function toWireWork(work: GroupWork): WireWork {
  return { ...work, batches: packBatches(work.batches) ?? work.batches };
}

export function fromWireWork(wire: WireWork): GroupWork {
  const { batches } = wire;
  return { ...wire, batches: isPacked(batches) ? unpackBatches(batches) : batches };
}

/** How many uploads a group holds, without unpacking it. */
export function uploadsIn(wire: WireWork): number {
  const { batches } = wire;
  return isPacked(batches) ? batches.sizes.length : batches.length;
}

function isPacked(batches: WireWork['batches']): batches is PackedBatches {
  return !Array.isArray(batches);
}

/** An error as data. */
export type WireError =
  | {
      readonly kind: 'invalid';
      readonly faults: readonly FieldFault[];
      readonly detail?: string;
      readonly reason?: string;
    }
  | { readonly kind: 'unauthenticated'; readonly message: string }
  | { readonly kind: 'conflict'; readonly message: string }
  | { readonly kind: 'error'; readonly name: string; readonly message: string; readonly code?: string };

export type WireOutcome =
  { readonly ok: true; readonly result: IngestResult } | { readonly ok: false; readonly error: WireError };

/** From the thread: how the group with this id ended. */
export type FromThread = { readonly id: number } & (
  | Exclude<GroupReply, { kind: 'written' }>
  | { readonly kind: 'written'; readonly outcomes: readonly WireOutcome[] }
  | { readonly kind: 'failed'; readonly error: WireError }
  | { readonly kind: 'closed' }
);

export function toWireError(error: unknown): WireError {
  if (error instanceof InvalidInput) {
    return {
      kind: 'invalid',
      faults: error.faults,
      ...(error.detail === undefined ? {} : { detail: error.detail }),
      ...(error.reason === undefined ? {} : { reason: error.reason }),
    };
  }
  if (error instanceof Unauthenticated) return { kind: 'unauthenticated', message: error.message };
  if (error instanceof Conflict) return { kind: 'conflict', message: error.message };
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { kind: 'error', name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { kind: 'error', name: 'Error', message: String(error) };
}

export function fromWireError(wire: WireError): Error {
  if (wire.kind === 'invalid') return new InvalidInput(wire.faults, { detail: wire.detail, reason: wire.reason });
  if (wire.kind === 'unauthenticated') return new Unauthenticated(wire.message);
  if (wire.kind === 'conflict') return new Conflict(wire.message);
  const error = Object.assign(new Error(wire.message), wire.code === undefined ? {} : { code: wire.code });
  error.name = wire.name;
  return error;
}

export function toWireOutcome(outcome: Outcome): WireOutcome {
  return outcome.ok ? outcome : { ok: false, error: toWireError(outcome.error) };
}

export function fromWireOutcome(outcome: WireOutcome): Outcome {
  return outcome.ok ? outcome : { ok: false, error: fromWireError(outcome.error) };
}
