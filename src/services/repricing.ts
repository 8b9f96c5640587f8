/**
 * @fileoverview Keeps `usage_daily.cost_micros` priced by the price data in force. The ingest
 * writers price every row they change; this reprices all stored rows when the data changes —
 * at start-up when the stored costs were priced by other data (or by none: a fresh migration),
 * and after syncPricing switches data. Work goes in batches of users, each one short transaction
 * (uploads of other users go on meanwhile); until a batch is done its users' old costs stay.
 * Runs are single-flight in a process: a call while one runs waits for it and then checks again.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { listUsersWithDaily, readCostsFingerprint, repriceUsers, writeCostsFingerprint } from '../db/queries/daily-costs.js';
import { rowCostMicros } from '../pricing/cost.js';
import type { PriceService } from '../pricing/price-service.js';

const USERS_PER_BATCH = 100;

export interface RepriceResult {
  /** False when the stored costs were already priced by the data in force. */
  readonly repriced: boolean;
  /** The price data the stored costs now reflect. */
  readonly fingerprint: string;
  readonly rows: number;
  readonly changed: number;
  readonly ms: number;
}

export class CostRepricer {
  private running: Promise<RepriceResult> | null = null;

  constructor(private readonly deps: { readonly db: Db; readonly prices: PriceService; readonly clock: Clock }) {}

  /** Reprices every stored cost unless the stored costs were priced by the data in force. */
  async ensureCurrent(): Promise<RepriceResult> {
    while (this.running) await this.running.catch(() => undefined);
    const run = this.run();
    this.running = run;
    try {
      return await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }

  private async run(): Promise<RepriceResult> {
    const { db, prices, clock } = this.deps;
    const started = Date.now();
    const fingerprint = prices.fingerprint;
    if ((await readCostsFingerprint(db)) === fingerprint) return { repriced: false, fingerprint, rows: 0, changed: 0, ms: 0 };
    let rows = 0;
    let changed = 0;
    for (let after = ''; ; ) {
      const users = await listUsersWithDaily(db, after, USERS_PER_BATCH);
      if (users.length === 0) break;
      const r = await repriceUsers(db, users, (row) => rowCostMicros(prices, row.source, row.model, row.day, row));
      rows += r.rows;
      changed += r.changed;
      after = users[users.length - 1] as string;
      await new Promise((resolve) => setImmediate(resolve)); // let requests through between batches
    }
    // Data replaced while this ran: the next call reprices again.
    if (prices.fingerprint === fingerprint) await writeCostsFingerprint(db, fingerprint, clock.now());
    return { repriced: true, fingerprint, rows, changed, ms: Date.now() - started };
  }
}
