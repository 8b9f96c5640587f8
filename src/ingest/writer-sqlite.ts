/**
 * @fileoverview The SQLite ingest writer: group commit. Uploads that reach the writer in the same
 * event-loop turn are written as one group (sqlite-group-writer.ts): one transaction, each upload
 * all-or-nothing in its own savepoint, every caller answered after the shared COMMIT. The same
 * hot pages (a user's rollup, daily and leaderboard rows) go to the WAL once per group instead of
 * once per upload, and each user's read models are moved once per group.
 *
 * A group is written synchronously holding the app-wide write lock (so it never interleaves with
 * a Kysely write transaction on the same connection). Once it holds the database's write lock the
 * prices it needs are resolved: an upload whose prices cannot be resolved fails alone, before
 * anything is written, with the data the stored costs are priced by then (day-rates.ts).
 *
 * When another connection holds the database's write lock (another server process on the same
 * file), the group goes back to the head of the queue and is tried again on the next event-loop
 * turns (every millisecond after the first two), while this process goes on reading requests;
 * an upload that could not get the lock within the busy timeout fails with 503.
 */
import type { SqliteDb } from '../db/connect.js';
import { busyError } from '../db/sqlite-busy.js';
import type { IngestBounds } from './bounds.js';
import { costerOf, resolveRates, type RateTable, type WritePrices } from './day-rates.js';
import { BUSY, createSqliteGroupWrite, type GroupWork, type GroupWrite, type Outcome } from './sqlite-group-writer.js';
import type { IngestBatch, IngestResult, IngestWriter } from './types.js';

/** Most uploads one group takes; the rest wait for the next turn. */
const MAX_GROUP = 64;

/** A busy write lock is tried again on every event-loop turn this long, then every millisecond. */
const SPIN_MS = 2;

interface Pending {
  readonly batch: IngestBatch;
  readonly resolve: (result: IngestResult) => void;
  readonly reject: (error: unknown) => void;
  /** When this upload first found the write lock taken (monotonic ms). */
  busySince?: number;
}

export class SqliteIngestWriter implements IngestWriter {
  private readonly write: GroupWrite;
  private readonly queue: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: SqliteDb,
    private readonly prices: WritePrices,
    bounds: IngestBounds,
  ) {
    this.write = createSqliteGroupWrite(db.sqlite, bounds);
  }

  apply(batch: IngestBatch): Promise<IngestResult> {
    return new Promise<IngestResult>((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      this.schedule();
    });
  }

  private schedule(delayMs = 0): void {
    if (this.scheduled) return;
    this.scheduled = true;
    if (delayMs === 0) setImmediate(() => this.flush());
    else setTimeout(() => this.flush(), delayMs);
  }

  /** Writes the queued uploads as one group (synchronously, under the app-wide write lock). */
  private flush(): void {
    this.scheduled = false;
    const group = this.queue.splice(0, MAX_GROUP);
    if (this.queue.length > 0) this.schedule();
    const lock = this.db.writeLock;
    if (lock.isFree)
      this.writeGroup(group); // synchronous: nothing can interleave
    else void lock.run(() => this.writeGroup(group));
  }

  private writeGroup(group: readonly Pending[]): void {
    let ready: Pending[] | undefined;
    // Called once the database's write lock is held (a retry never resolves prices again).
    const prepare = (): GroupWork => {
      // With the write lock held: the data the stored costs are priced by cannot change before the commit.
      const { ratesOf } = this.prices.inForce();
      const rates: RateTable = new Map();
      ready = [];
      for (const p of group) {
        try {
          resolveRates(p.batch.buckets, ratesOf, rates);
          ready.push(p);
        } catch (error) {
          p.reject(error); // its prices could not be resolved: it fails alone, before anything is written
        }
      }
      return { batches: ready.map((p) => p.batch), costOf: costerOf(rates) };
    };
    let outcomes: Outcome[] | typeof BUSY;
    try {
      outcomes = this.write(prepare);
    } catch (error) {
      // The group failed as a whole (a storage failure, or a sum out of range in its read models):
      // nothing was stored. Each upload is written again alone, so only the one at fault fails.
      const failed = ready ?? group;
      if (failed.length === 1) (failed[0] as Pending).reject(error);
      else for (const p of failed) this.writeGroup([p]);
      return;
    }
    if (outcomes === BUSY) {
      this.retryLater(ready ?? group);
      return;
    }
    const written = ready ?? [];
    outcomes.forEach((o, i) => {
      const p = written[i] as Pending;
      if (o.ok) p.resolve(o.result);
      else p.reject(o.error);
    });
  }

  /** The write lock is taken elsewhere: back to the head of the queue, or 503 past the busy timeout. */
  private retryLater(group: readonly Pending[]): void {
    const now = performance.now();
    const waiting: Pending[] = [];
    let oldest = now;
    for (const p of group) {
      p.busySince ??= now;
      if (now - p.busySince > this.db.busyTimeoutMs) {
        p.reject(busyError());
      } else {
        waiting.push(p);
        oldest = Math.min(oldest, p.busySince);
      }
    }
    if (waiting.length === 0) return;
    this.queue.unshift(...waiting);
    this.schedule(now - oldest < SPIN_MS ? 0 : 1);
  }
}
