/**
 * @fileoverview The PostgreSQL ingest writer: group commit. Uploads waiting for the writer are
 * written together, up to {@link MAX_GROUP_UPLOADS} of distinct devices in one transaction of two
 * round trips (BEGIN and the users' locks with the read of what is stored behind them; the writes with
 * COMMIT behind them: the pool's connections are pipelined, db/connect.ts), with at most
 * {@link MAX_GROUPS_IN_FLIGHT} groups at a time; uploads that arrive while those are in flight
 * wait and form the next group. Every caller is answered after its group's COMMIT.
 *
 * Prices are resolved per upload before the transaction (an upload that cannot be priced fails
 * alone), with the data this process last knew the stored costs to be priced by; the transaction,
 * holding the stored costs' lock shared, reads which data that is, and resolves them again with
 * it when another process switched meanwhile (day-rates.ts). If a group fails as a whole for any
 * other reason, its uploads are written again one by one, so one bad upload fails alone and the
 * others are stored. A deadlock or serialization victim is run again (up to three attempts).
 */
import type { PostgresDb } from '../../db/connect.js';
import { beginLockingUsers } from '../../db/queries/ingest-postgres.js';
import { resolveRates, type CostRates, type PriceSource, type RateTable } from '../core/day-rates.js';
import { sumsOutOfRange, type IngestBounds } from '../core/bounds.js';
import { writeGroup } from './group-write.js';
import { loadStored } from './stored-state.js';
import { MAX_GROUP_UPLOADS, settle, withPrices, type PendingUpload } from '../core/pending.js';
import type { IngestBatch, IngestResult, IngestWriter, Outcome } from '../types.js';

/** Groups written at once: one committing while the next is read and planned. */
const MAX_GROUPS_IN_FLIGHT = 2;
const MAX_ATTEMPTS = 3;

/** deadlock_detected and serialization_failure: the transaction may simply be run again. */
function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * numeric_value_out_of_range: a sum left PostgreSQL's 64-bit range. The per-day bound keeps new
 * uploads far from it, so only rows stored before that bound existed can get there; the upload
 * that would overflow them is refused (400), not answered with a 500.
 */
function asProblem(error: unknown): unknown {
  if ((error as { code?: unknown } | null)?.code !== '22003') return error;
  return sumsOutOfRange();
}

/** A group's rates, and the fingerprint of the data they are of (null: fixed rates). */
interface Priced {
  readonly fingerprint: string | null;
  readonly table: RateTable;
}

type Pending = PendingUpload;

export class PostgresIngestWriter implements IngestWriter {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  /**
   * Users with an upload in a group in flight: their next uploads wait for the next group. (A
   * device's next upload must see what its previous one stored, and a second group holding one of
   * the first's users would only wait for its lock, holding a connection.)
   */
  private readonly writing = new Set<string>();
  private scheduled = false;

  constructor(
    private readonly db: PostgresDb,
    private readonly prices: PriceSource<CostRates>,
    private readonly bounds: IngestBounds,
  ) {}

  async close(): Promise<void> {}

  apply(batch: IngestBatch): Promise<IngestResult> {
    return new Promise<IngestResult>((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      this.schedule();
    });
  }

  /** Starts a group on the next turn (so the uploads of this one join it), if one may start. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_GROUPS_IN_FLIGHT || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startGroup();
    });
  }

  private startGroup(): void {
    if (this.inFlight >= MAX_GROUPS_IN_FLIGHT) return;
    // One upload per device a group; no user of a group in flight.
    const group: Pending[] = [];
    const rest: Pending[] = [];
    const devices = new Set<string>();
    const users = new Set<string>();
    for (const p of this.queue) {
      const { deviceId, userId } = p.batch;
      if (group.length >= MAX_GROUP_UPLOADS || devices.has(deviceId) || this.writing.has(userId)) rest.push(p);
      else {
        devices.add(deviceId);
        users.add(userId);
        group.push(p);
      }
    }
    for (const user of users) this.writing.add(user);
    if (group.length === 0) return;
    this.queue.splice(0, this.queue.length, ...rest);
    this.inFlight += 1;
    void this.writeAll(group).finally(() => {
      for (const user of users) this.writing.delete(user);
      this.inFlight -= 1;
      this.schedule();
    });
    this.schedule();
  }

  /** Writes a group; if it fails as a whole, each of its uploads alone. Settles every caller. */
  private async writeAll(group: readonly Pending[]): Promise<void> {
    const serving = this.prices.serving();
    const rates: Priced = { fingerprint: serving.fingerprint, table: new Map() };
    const ready = withPrices(group, serving.ratesOf, rates.table);
    if (ready.length === 0) return;
    try {
      const outcomes = await this.attempt(
        ready.map((p) => p.batch),
        rates,
      );
      ready.forEach((p, i) => settle(p, outcomes[i] as Outcome));
    } catch (error) {
      if (ready.length === 1) {
        (ready[0] as Pending).reject(asProblem(error));
        return;
      }
      for (const p of ready) {
        try {
          settle(p, (await this.attempt([p.batch], rates))[0] as Outcome);
        } catch (alone) {
          p.reject(asProblem(alone));
        }
      }
    }
  }

  private async attempt(batches: readonly IngestBatch[], rates: Priced): Promise<Outcome[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.transaction(batches, rates);
      } catch (error) {
        // Users are locked in one order everywhere, so this should not happen; if PostgreSQL still
        // picks this transaction as a deadlock or serialization victim, it is safe to run it again.
        if (attempt < MAX_ATTEMPTS && isRetryable(error)) continue;
        throw error;
      }
    }
  }

  private async transaction(batches: readonly IngestBatch[], rates: Priced): Promise<Outcome[]> {
    const client = await this.db.pool.connect();
    try {
      // Every read model an upload touches is keyed by user: the group holds its users' locks.
      // Priced rates also read which data priced the stored costs, and are resolved again with it
      // when another process switched meanwhile.
      const checked = rates.fingerprint !== null;
      // The read is sent behind BEGIN and the locks without waiting for them. Under READ COMMITTED
      // its snapshot is taken when the database starts it, after the locks are held, so it sees
      // every group of these users committed before; if BEGIN or a lock fails, the read fails in
      // the aborted transaction and the first error is the one thrown.
      const begun = beginLockingUsers(
        client,
        batches.map((b) => b.userId),
        checked,
      );
      const [inForce, stored] = await Promise.all([begun, loadStored(client, batches)]);
      const table =
        inForce !== null && inForce !== rates.fingerprint ? await this.ratesWith(inForce, batches) : rates.table;
      const { outcomes, written } = writeGroup(client, batches, stored, table, this.bounds);
      // COMMIT goes behind the writes unanswered: after a failed write it ends the aborted
      // transaction as a rollback, and the write's error is the one thrown.
      await Promise.all([written, client.query('COMMIT')]);
      return outcomes;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** The group's rates with the data the stored costs were found priced by (another process switched it). */
  private async ratesWith(fingerprint: string, batches: readonly IngestBatch[]): Promise<RateTable> {
    const { ratesOf } = await this.prices.of(fingerprint);
    const table: RateTable = new Map();
    for (const b of batches) resolveRates(b.buckets, ratesOf, table);
    return table;
  }
}
