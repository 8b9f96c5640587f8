/**
 * @fileoverview A group's uploads as they cross to the SQLite writer thread: packed into a few
 * typed arrays and one table of distinct strings, instead of an object per bucket.
 *
 * Why: the structured clone of an object writes and reads every property's name, and builds the
 * object property by property. A group of 25 ten-bucket uploads took ~100 µs to clone on the app's
 * thread and ~200 µs to rebuild on the writer thread, both on the path of every group (the thread
 * waits for the clone, the next group waits for the thread); packed, ~40 and ~22 µs
 * (docs/decisions.md, "Ingest on SQLite"). A bucket's counts travel as unsigned 64-bit integers,
 * which hold every count the interface accepts (at most 10^12 each); a group holding one beyond
 * them (never through the interface) crosses as it is.
 */
import type { Bucket } from '../../../domain/bucket.js';
import { COUNT_FIELDS, type TokenCounts } from '../../../domain/token-counts.js';
import type { NormalizedSubscription } from '../../core/subscriptions.js';
import type { IngestBatch } from '../../types.js';
import type { OtlpStateChanges } from '../../../db/queries/otlp-writes.js';

/** Counts per bucket, in COUNT_FIELDS order. */
const COUNTS = COUNT_FIELDS.length;
/** Strings per bucket: source, model, project key, project ref (-1 for null). */
const NAMES = 4;
const MAX_U64 = (1n << 64n) - 1n;

/** The uploads of a group, packed. */
export interface PackedBatches {
  readonly userIds: readonly string[];
  readonly deviceIds: readonly string[];
  readonly nows: Float64Array;
  readonly subscriptions: readonly (NormalizedSubscription[] | undefined)[];
  /** The OTLP state of each upload that carries one (few, small: cloned as they are). */
  readonly otlp: readonly (OtlpStateChanges | undefined)[];
  /** Buckets per upload. */
  readonly sizes: Uint32Array;
  readonly hourStarts: Float64Array;
  readonly counts: BigUint64Array;
  /** Indexes into `strings`, NAMES per bucket; -1 for a null project ref. */
  readonly names: Int32Array;
  readonly strings: readonly string[];
}

/** Packs a group's uploads, or answers undefined when a count does not fit (the group then crosses as it is). */
export function packBatches(batches: readonly IngestBatch[]): PackedBatches | undefined {
  let total = 0;
  for (const b of batches) total += b.buckets.length;
  const hourStarts = new Float64Array(total);
  const counts = new BigUint64Array(total * COUNTS);
  const names = new Int32Array(total * NAMES);
  const strings: string[] = [];
  const indexOf = new Map<string, number>();
  const intern = (text: string): number => {
    let i = indexOf.get(text);
    if (i === undefined) {
      i = strings.push(text) - 1;
      indexOf.set(text, i);
    }
    return i;
  };
  let at = 0;
  for (const batch of batches) {
    for (const b of batch.buckets) {
      hourStarts[at] = b.hourStart;
      for (let f = 0; f < COUNTS; f += 1) {
        const value = b[COUNT_FIELDS[f] as keyof TokenCounts];
        if (value < 0n || value > MAX_U64) return undefined;
        counts[at * COUNTS + f] = value;
      }
      names[at * NAMES] = intern(b.source);
      names[at * NAMES + 1] = intern(b.model);
      names[at * NAMES + 2] = intern(b.projectKey);
      names[at * NAMES + 3] = b.projectRef === null ? -1 : intern(b.projectRef);
      at += 1;
    }
  }
  return {
    userIds: batches.map((b) => b.userId),
    deviceIds: batches.map((b) => b.deviceId),
    nows: Float64Array.from(batches, (b) => b.now),
    subscriptions: batches.map((b) => b.subscriptions),
    otlp: batches.map((b) => b.otlp),
    sizes: Uint32Array.from(batches, (b) => b.buckets.length),
    hourStarts,
    counts,
    names,
    strings,
  };
}

/** The uploads as they were packed. */
export function unpackBatches(packed: PackedBatches): IngestBatch[] {
  const { counts, names, strings, hourStarts } = packed;
  const string = (i: number): string => strings[i] as string;
  const batches: IngestBatch[] = [];
  let at = 0;
  for (let u = 0; u < packed.sizes.length; u += 1) {
    const buckets: Bucket[] = new Array<Bucket>(packed.sizes[u] as number);
    for (let i = 0; i < buckets.length; i += 1, at += 1) {
      const c = at * COUNTS;
      const n = at * NAMES;
      const ref = names[n + 3] as number;
      buckets[i] = {
        hourStart: hourStarts[at] as number,
        source: string(names[n] as number),
        model: string(names[n + 1] as number),
        projectKey: string(names[n + 2] as number),
        projectRef: ref === -1 ? null : string(ref),
        input: counts[c] as bigint,
        cached: counts[c + 1] as bigint,
        output: counts[c + 2] as bigint,
        reasoning: counts[c + 3] as bigint,
        total: counts[c + 4] as bigint,
        billable: counts[c + 5] as bigint,
      };
    }
    batches.push({
      userId: packed.userIds[u] as string,
      deviceId: packed.deviceIds[u] as string,
      now: packed.nows[u] as number,
      buckets,
      subscriptions: packed.subscriptions[u],
      ...(packed.otlp[u] ? { otlp: packed.otlp[u] } : {}),
    });
  }
  return batches;
}
