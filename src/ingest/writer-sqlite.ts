/**
 * @fileoverview The SQLite ingest writer: group commit. Uploads that arrive while a group is being
 * written wait in a queue and are written together as the next group (sqlite-group-writer.ts):
 * one transaction, each upload all-or-nothing in its own savepoint, every caller answered after
 * the shared COMMIT. The same hot pages (a user's rollup, daily and leaderboard rows) go to the WAL
 * once per group instead of once per upload, and each user's read models are moved once per group.
 *
 * Groups are written one at a time, on the writer thread for a database file or on this thread for
 * an in-memory database (sqlite-group-runner.ts). A group's rates are resolved here, before it is
 * sent, with the price data this process last knew: an upload whose prices cannot be resolved
 * fails alone, before anything is written. When the group finds the stored costs priced by other
 * data it is resolved again with that data and sent again (day-rates.ts).
 *
 * When another connection holds the database's write lock (another server process on the same
 * file), the group goes back to the head of the queue and is tried again on the next event-loop
 * turns (every millisecond after the first two); an upload that could not get the lock within the
 * busy timeout fails with 503. A group that fails as a whole is written again upload by upload, so
 * only the one at fault fails.
 */
import type { SqliteDb } from '../db/connect.js';
import { busyError } from '../db/sqlite-busy.js';
import type { IngestBounds } from './bounds.js';
import type { RateTable, WritePrices } from './day-rates.js';
import { settle, withPrices, type PendingUpload } from './pending.js';
import type { CheckpointPolicy } from '../db/sqlite-checkpoints.js';
import { createGroupRunner, type GroupRunner } from './sqlite-group-runner.js';
import type { IngestBatch, IngestResult, IngestWriter } from './types.js';

/** Most uploads one group takes; the rest go in the next. */
const MAX_GROUP = 64;

/** A busy write lock is tried again on every event-loop turn this long, then every millisecond. */
const SPIN_MS = 2;

interface Pending extends PendingUpload {
  /** When this upload first found the write lock taken (monotonic ms). */
  busySince?: number;
  /** Written in a group of its own (its group failed as a whole). */
  alone?: boolean;
}

export class SqliteIngestWriter implements IngestWriter {
  private readonly runner: GroupRunner;
  private readonly queue: Pending[] = [];
  private scheduled = false;
  private writing = false;
  /** When the next group may start (ms from now): 0, or 1 while the write lock is taken elsewhere. */
  private retryDelayMs = 0;

  constructor(
    private readonly db: SqliteDb,
    private readonly prices: WritePrices,
    bounds: IngestBounds,
    checkpoints?: CheckpointPolicy,
  ) {
    this.runner = createGroupRunner(db, bounds, checkpoints);
  }

  apply(batch: IngestBatch): Promise<IngestResult> {
    return new Promise<IngestResult>((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      this.schedule();
    });
  }

  close(): Promise<void> {
    return this.runner.close();
  }

  /** Starts the next group on a later turn (so the uploads of this one join it), unless one is being written. */
  private schedule(): void {
    if (this.scheduled || this.writing || this.queue.length === 0) return;
    this.scheduled = true;
    const delayMs = this.retryDelayMs;
    this.retryDelayMs = 0;
    if (delayMs === 0) setImmediate(() => this.flush());
    else setTimeout(() => this.flush(), delayMs);
  }

  private flush(): void {
    this.scheduled = false;
    const head = this.queue[0];
    if (this.writing || head === undefined) return;
    let size = 1;
    if (!head.alone) while (size < Math.min(MAX_GROUP, this.queue.length) && !this.queue[size]?.alone) size += 1;
    const group = this.queue.splice(0, size);
    this.writing = true;
    void this.writeGroup(group);
  }

  /**
   * The group is done with the database: the next one starts at once, with the uploads that arrived
   * meanwhile, before this one's callers are answered (so the writer thread writes while this thread
   * sends the answers).
   */
  private next(): void {
    this.writing = false;
    if (this.retryDelayMs === 0 && this.queue.length > 0 && !this.scheduled) this.flush();
    else this.schedule();
  }

  /** Writes a group until it is written, put back (busy) or failed, then starts the next and settles every caller it did not put back. */
  private async writeGroup(group: readonly Pending[]): Promise<void> {
    let { fingerprint, ratesOf } = this.prices.latest();
    let ready = group;
    for (;;) {
      const rates: RateTable = new Map();
      ready = withPrices(ready, ratesOf, rates);
      if (ready.length === 0) return this.next();
      let reply;
      try {
        reply = await this.runner.run({ batches: ready.map((p) => p.batch), fingerprint, rates });
      } catch (error) {
        // Nothing of the group was stored (a storage failure, or a sum out of range in its read
        // models): each upload is written again alone, so only the one at fault fails.
        if (ready.length > 1) this.queue.unshift(...ready.map((p) => Object.assign(p, { alone: true })));
        this.next();
        if (ready.length === 1) (ready[0] as Pending).reject(error);
        return;
      }
      if (reply.kind === 'busy') {
        this.retryLater(ready);
        return this.next();
      }
      if (reply.kind === 'stale') {
        // Another process switched the data the stored costs are priced by: the rates again, with it.
        try {
          ({ fingerprint, ratesOf } = await this.prices.of(reply.fingerprint));
        } catch (error) {
          this.next();
          for (const p of ready) p.reject(error);
          return;
        }
        continue;
      }
      this.next();
      reply.outcomes.forEach((o, i) => settle(ready[i] as Pending, o));
      return;
    }
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
    this.retryDelayMs = now - oldest < SPIN_MS ? 0 : 1;
  }
}
