/**
 * @fileoverview Keeps `usage_daily.cost_micros` priced by the price data in use, repricing every
 * stored row when the data changes (a new bundled package version, synced data, a fresh
 * migration), in the background while the server answers (docs/pricing.md, "Stored costs").
 *
 * Until a repricing ends, the stored costs stay as they are and every answer prices with the data
 * they were priced by (price-book.ts). The new costs are written aside, batch by batch of users
 * (db/queries/repricing.ts), and swapped in with the new fingerprint in one transaction at the end
 * (db/queries/daily-costs.ts), where the rows uploads changed since their batch are priced again:
 * the switch is atomic and the end state exact, however uploads went meanwhile.
 *
 * One process runs a repricing at a time, holding a lease it renews with every batch; a process
 * that stops gives it back, one that dies lets it run out, and another process goes on from the
 * last batch stored. The newest request wins: a start or a sync whose data differs from the
 * repricing's target moves the target to its data.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import {
  claimCostsFingerprint,
  hasDailyRows,
  listUsersWithDaily,
  readCostsFingerprint,
  readDailyRows,
  swapRepricedCosts,
  type DailyCostRow,
} from '../db/queries/daily-costs.js';
import {
  readRepricing,
  releaseRepricingLease,
  requestRepricing,
  saveRepricedBatch,
  takeRepricingLease,
} from '../db/queries/repricing.js';
import { priceDataReady, rowCostMicros, type PriceData, type PriceService } from '../pricing/index.js';
import { snapshotOf, type PriceBook } from './price-book.js';

const USERS_PER_BATCH = 100;
/** How long a repricing stays with the process running it without a word (it renews with every batch). */
export const REPRICING_LEASE_MS = 60_000;
/** How often (real time) every process looks for a repricing nobody runs (its process stopped, or failed). */
const WATCH_MS = 30_000;

export interface RepricingHooks {
  readonly usersPerBatch?: number;
  /** Awaited before each step (a batch, or the swap at the end): tests hold a repricing here to look at the answers meanwhile. */
  readonly beforeBatch?: (progress: { readonly rowsDone: number }) => Promise<void>;
}

/** What `/healthz` says of the stored costs. */
export type PricingStatus =
  { readonly state: 'current' } | { readonly state: 'repricing'; readonly rows_done: number; readonly since: string };

export interface RepriceResult {
  /** False when the stored costs were priced by the data in use already. */
  readonly repriced: boolean;
  /** The price data the stored costs reflect now. */
  readonly fingerprint: string;
  readonly rows: number;
  readonly changed: number;
  readonly ms: number;
}

export interface RepricerDeps {
  readonly db: Db;
  readonly book: PriceBook;
  readonly clock: Clock;
  readonly hooks?: RepricingHooks;
  /** Told when a repricing run here switched the stored costs (and this process's prices) to new data. */
  readonly onSwitched?: (result: RepriceResult) => void;
  /** Told when a repricing in the background failed (it is tried again later). */
  readonly onError?: (error: unknown) => void;
}

export class CostRepricer {
  private readonly holder = randomUUID();
  private running: Promise<RepriceResult | undefined> | null = null;
  private watch: NodeJS.Timeout | undefined;
  private stopped = false;
  /** True once this process held the lease (so closing gives it back). */
  private held = false;

  constructor(private readonly deps: RepricerDeps) {}

  /**
   * At start-up, with this process's data: records it for a fresh database, asks for the stored
   * costs to be priced by it, and serves with the data they are priced by while the repricing runs
   * in the background. Only when that data is not at hand (costs never priced, or priced by data
   * from before the database kept it) is the repricing run to its end first. Returns the log line.
   */
  async start(data: PriceData): Promise<string> {
    const { db, book, clock } = this.deps;
    await priceDataReady();
    let live = await readCostsFingerprint(db);
    if (live === null && !(await hasDailyRows(db)))
      live = await claimCostsFingerprint(db, data.fingerprint, clock.now());
    const usable = live !== null && (await book.knows(live));
    const asked = await requestRepricing(db, snapshotOf(data), clock.now());
    this.watch ??= setInterval(() => void this.lookAgain(), WATCH_MS);
    this.watch.unref();
    if (!usable) {
      const r = await this.untilCurrent();
      return `repriced stored daily costs (${r.rows} rows read, ${r.changed} changed, ${r.ms} ms) before serving: the data that priced them is not kept`;
    }
    await book.refresh();
    const target = (await readRepricing(db))?.target;
    if (asked === 'current' && target === undefined) return `stored daily costs are priced by ${data.fingerprint}`;
    this.resume();
    return `repricing stored daily costs in the background (to ${target ?? data.fingerprint}); answers use ${book.serving().fingerprint} until it ends`;
  }

  /** Asks for the stored costs to be priced by `data` and runs the repricing (syncPricing after a switch); undefined when another process runs it. */
  async repriceTo(data: PriceData): Promise<RepriceResult | undefined> {
    await requestRepricing(this.deps.db, snapshotOf(data), this.deps.clock.now());
    return this.run();
  }

  /** Starts (or joins) the repricing under way in the background; a failure is told (and tried again by the next look). */
  resume(): void {
    this.run().catch((error: unknown) => this.deps.onError?.(error));
  }

  /** Runs the repricing under way to its end here, unless another process runs it (undefined). One run at a time. */
  run(): Promise<RepriceResult | undefined> {
    if (this.running === null) {
      const run = this.loop();
      this.running = run;
      void run
        .finally(() => {
          if (this.running === run) this.running = null;
        })
        .catch(() => undefined);
    }
    return this.running;
  }

  async status(): Promise<PricingStatus> {
    const state = await readRepricing(this.deps.db);
    if (state === undefined) return { state: 'current' };
    return { state: 'repricing', rows_done: state.rowsDone, since: new Date(state.startedAt).toISOString() };
  }

  /** Resolves once no repricing runs in this process. */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /** Stops at the next step and gives the lease back, so another process goes on from there. */
  async close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.watch);
    await this.idle();
    if (this.held) await releaseRepricingLease(this.deps.db, this.holder).catch(() => undefined);
  }

  /** Goes on with a repricing nobody holds (its process stopped or failed, or never heard of it). */
  private async lookAgain(): Promise<void> {
    if (this.stopped || this.running !== null) return;
    const state = await readRepricing(this.deps.db).catch(() => undefined);
    if (
      state !== undefined &&
      (state.holder === null || state.holder === this.holder || state.leaseUntil <= this.deps.clock.now())
    )
      this.resume();
  }

  /** Runs until the stored costs are current, waiting while another process runs the repricing. */
  private async untilCurrent(): Promise<RepriceResult> {
    for (;;) {
      const result = await this.run();
      if (result !== undefined) return result;
      if (this.stopped) throw new Error('stopped before the stored costs were repriced');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  private async loop(): Promise<RepriceResult | undefined> {
    const { db, book, clock, hooks } = this.deps;
    const started = Date.now();
    const batch = hooks?.usersPerBatch ?? USERS_PER_BATCH;
    let result: RepriceResult | undefined;
    for (;;) {
      if (this.stopped) return result; // close() gives the lease back
      const now = clock.now();
      const lease = await takeRepricingLease(db, this.holder, now, now + REPRICING_LEASE_MS);
      if (lease === undefined)
        return result ?? { repriced: false, fingerprint: book.serving().fingerprint, rows: 0, changed: 0, ms: 0 };
      if (!lease.mine) return undefined;
      this.held = true;
      const { state } = lease;
      const prices = await book.load(state.target);
      await hooks?.beforeBatch?.({ rowsDone: state.rowsDone });
      if (this.stopped) continue;
      const users = await listUsersWithDaily(db, state.afterUser, batch);
      if (users.length === 0) {
        const price = (row: DailyCostRow) => costOf(prices, row);
        const swapped = await swapRepricedCosts(db, {
          holder: this.holder,
          target: state.target,
          nowMs: clock.now(),
          price,
        });
        if (swapped !== undefined) {
          book.use(prices);
          result = {
            repriced: true,
            fingerprint: state.target,
            rows: state.rowsDone + swapped.caughtUp,
            changed: swapped.changed,
            ms: Date.now() - started,
          };
          this.deps.onSwitched?.(result);
        }
        continue;
      }
      const rows = (await readDailyRows(db, users)).map((r) => ({ ...r, cost: costOf(prices, r) }));
      await saveRepricedBatch(db, {
        holder: this.holder,
        target: state.target,
        afterUser: users[users.length - 1] as string,
        rows,
        leaseUntil: clock.now() + REPRICING_LEASE_MS,
      });
      await new Promise((resolve) => setImmediate(resolve)); // let requests through between batches
    }
  }
}

function costOf(prices: PriceService, row: DailyCostRow): bigint {
  return rowCostMicros(prices, row.source, row.model, row.day, row);
}
