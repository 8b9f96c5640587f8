/**
 * @fileoverview The SQLite ingest writer: group commit. Uploads wait in a queue and are written
 * together as groups (sqlite/group-write.ts): one transaction, each upload all-or-nothing in its
 * own savepoint, every caller answered after the shared COMMIT. The same hot pages (a user's rollup,
 * daily and leaderboard rows) go to the WAL once per group instead of once per upload, and each
 * user's read models are moved once per group.
 *
 * For a database file the groups are written on the writer thread (sqlite/group-runner.ts), which
 * is sent the uploads ready at the end of every event-loop turn, even while it writes: those that
 * wait for it are joined into its next group (sqlite/thread/join.ts). When the thread has nothing
 * left to write, an upload is sent the moment it is ready instead, so the thread does not wait for
 * the end of a turn that may be answering and parsing a burst of requests. An in-memory database is
 * written on this thread, one group at a time, each the uploads of a turn.
 *
 * A group's rates are resolved here, before it is sent, with the price data this process last knew:
 * an upload whose prices cannot be resolved fails alone, before anything is written. When the group
 * finds the stored costs priced by other data it is resolved again with that data and sent again
 * (day-rates.ts).
 *
 * When another connection holds the database's write lock (another server process on the same
 * file), the group goes back to the head of the queue and is tried again on the next event-loop
 * turns (every millisecond after the first two); an upload that could not get the lock within the
 * busy timeout fails with 503. A group that fails as a whole is written again upload by upload, so
 * only the one at fault fails. Uploads in flight together have no order between them, as with
 * concurrent requests: a group put back may be written after one sent later.
 */
import type { SqliteDb } from '../../db/connect.js';
import { busyError } from '../../db/sqlite-busy.js';
import type { IngestBounds } from '../core/bounds.js';
import type { CostRates, PriceSource, RateTable } from '../core/day-rates.js';
import { MAX_GROUP_UPLOADS, settle, withPrices, type PendingUpload } from '../core/pending.js';
import type { CheckpointPolicy } from '../../db/sqlite-checkpoints.js';
import { createGroupRunner, type GroupRunner } from './group-runner.js';
import type { IngestBatch, IngestResult, IngestWriter } from '../types.js';

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
  /**
   * The next dispatch: none scheduled, at the end of this event-loop turn, or after a back-off
   * timer while another connection holds the write lock (no upload goes before it then).
   */
  private dispatchAt: 'none' | 'turn-end' | 'back-off' = 'none';
  /** The write lock was found taken elsewhere: the next dispatch waits a millisecond. */
  private backOffNext = false;
  /** Groups sent and not yet answered. */
  private inFlight = 0;

  constructor(
    private readonly db: SqliteDb,
    private readonly prices: PriceSource<CostRates>,
    bounds: IngestBounds,
    checkpoints?: CheckpointPolicy,
  ) {
    this.runner = createGroupRunner(db, bounds, checkpoints);
  }

  apply(batch: IngestBatch): Promise<IngestResult> {
    return new Promise<IngestResult>((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      if (this.dispatchAt !== 'back-off' && !this.backOffNext && this.runner.waitsForWork()) this.dispatch();
      else this.schedule();
    });
  }

  close(): Promise<void> {
    return this.runner.close();
  }

  /** Dispatches on a later turn (so the uploads of this one join the group), unless no group may be sent now. */
  private schedule(): void {
    if (this.dispatchAt !== 'none' || this.queue.length === 0 || this.mustWait()) return;
    const dispatch = () => {
      this.dispatchAt = 'none';
      this.dispatch();
    };
    if (this.backOffNext) {
      this.backOffNext = false;
      this.dispatchAt = 'back-off';
      setTimeout(dispatch, 1);
    } else {
      this.dispatchAt = 'turn-end';
      setImmediate(dispatch);
    }
  }

  /** A runner that writes one group at a time is still writing one. */
  private mustWait(): boolean {
    return this.inFlight > 0 && !this.runner.overlaps;
  }

  /** Sends the queue's uploads as groups of at most MAX_GROUP_UPLOADS: all of them, or one group at a time. */
  private dispatch(): void {
    while (this.queue.length > 0 && !this.mustWait()) {
      const head = this.queue[0] as Pending;
      let size = 1;
      const most = Math.min(MAX_GROUP_UPLOADS, this.queue.length);
      if (!head.alone) while (size < most && !this.queue[size]?.alone) size += 1;
      this.inFlight += 1;
      void this.writeGroup(this.queue.splice(0, size));
    }
  }

  /**
   * A group is done with the database. One written on this thread is followed at once by the next,
   * with the uploads that arrived meanwhile, before its callers are answered.
   */
  private next(): void {
    this.inFlight -= 1;
    if (!this.backOffNext && this.dispatchAt === 'none') this.dispatch();
    else this.schedule();
  }

  /** Writes a group until it is written, put back (busy) or failed, then starts the next and settles every caller it did not put back. */
  private async writeGroup(group: readonly Pending[]): Promise<void> {
    let { fingerprint, ratesOf } = this.prices.serving();
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
    this.backOffNext = now - oldest >= SPIN_MS;
  }
}
