/**
 * @fileoverview The price data sets a process prices with, by fingerprint (docs/pricing.md,
 * "Stored costs"). The stored costs of `usage_daily` were priced by one data set: the database
 * records its fingerprint with them (`read_model_state`) and keeps the data itself
 * (`price_snapshots`). So whatever is priced in JavaScript — the partial UTC days at the edges of
 * an answer's range, the rows an upload writes — is priced with the data of the stored costs it
 * goes with, in every process, also while a repricing moves them to other data, and after a
 * package upgrade replaced the bundled data.
 */
import type { Db } from '../db/connect.js';
import { readCostsFingerprint } from '../db/queries/daily-costs.js';
import { findPriceSnapshot, hasPriceSnapshot, type PriceSnapshot } from '../db/queries/price-snapshots.js';
import {
  createPriceData,
  createPriceService,
  type CostRates,
  type PriceData,
  type PriceService,
  type PriceSource,
} from '../pricing/index.js';

/** Data sets kept in memory: the one in use, a repricing's target, this process's own (more only briefly). */
const KEPT = 4;

/** A data set as the database keeps it. */
export function snapshotOf(data: PriceData): PriceSnapshot {
  return {
    fingerprint: data.fingerprint,
    source: data.source,
    effectiveFrom: data.effectiveFrom,
    data: JSON.stringify(data.providers),
  };
}

function ratesOf(prices: PriceService): CostRates {
  return { fingerprint: prices.fingerprint, ratesOf: (model, day) => prices.priceOn(model, day).rates };
}

/** What answers price with: the data the stored costs they read were priced by. */
export class PriceBook implements PriceSource<PriceService> {
  private readonly services = new Map<string, PriceService>();
  private readonly loading = new Map<string, Promise<PriceService>>();
  private live: PriceService;
  private refreshing: Promise<void> | undefined;

  /** `own` follows this process's data (bundled, or what syncPricing switched to). */
  constructor(
    private readonly db: Db,
    private readonly own: PriceService,
  ) {
    this.live = this.pinned(own.data);
  }

  serving(): PriceService {
    return this.live;
  }

  /** Serves with `prices` from now on (the stored costs were just moved to its data). */
  use(prices: PriceService): void {
    this.live = prices;
  }

  /** Reads which data priced the stored costs, and serves with it. */
  async refresh(): Promise<void> {
    const fingerprint = await readCostsFingerprint(this.db);
    if (fingerprint !== null) this.live = await this.load(fingerprint);
  }

  /** True when the data with this fingerprint can be had (in memory or kept in the database). */
  async knows(fingerprint: string): Promise<boolean> {
    return this.known(fingerprint) !== undefined || (await hasPriceSnapshot(this.db.kysely, fingerprint));
  }

  /**
   * The data with this fingerprint. When it is not the data this process serves with, the process
   * reads which data the stored costs are priced by now, so the next answers begin with it.
   */
  async of(fingerprint: string): Promise<PriceService> {
    if (fingerprint !== this.live.fingerprint && this.refreshing === undefined) {
      this.refreshing = this.refresh()
        .catch(() => undefined)
        .finally(() => (this.refreshing = undefined));
    }
    return this.load(fingerprint);
  }

  /** The data with this fingerprint, from memory or the database (a repricing's target). */
  async load(fingerprint: string): Promise<PriceService> {
    const known = this.known(fingerprint);
    if (known !== undefined) return known;
    let load = this.loading.get(fingerprint);
    if (load === undefined) {
      load = findPriceSnapshot(this.db.kysely, fingerprint).then((snapshot) =>
        this.fromSnapshot(fingerprint, snapshot),
      );
      this.loading.set(fingerprint, load);
      void load.finally(() => this.loading.delete(fingerprint)).catch(() => undefined);
    }
    return load;
  }

  /** The ingest writers' prices: the data the stored costs are priced by, checked in their transactions. */
  forWriters(): PriceSource<CostRates> {
    return {
      serving: () => ratesOf(this.live),
      of: async (fingerprint) => ratesOf(await this.of(fingerprint)),
    };
  }

  private known(fingerprint: string): PriceService | undefined {
    const service = this.services.get(fingerprint);
    if (service !== undefined) return service;
    const own = this.own.data;
    return own.fingerprint === fingerprint ? this.pinned(own) : undefined;
  }

  private fromSnapshot(fingerprint: string, snapshot: PriceSnapshot | undefined): PriceService {
    const known = this.known(fingerprint);
    if (known !== undefined) return known;
    if (snapshot === undefined) throw new Error(`the price data ${fingerprint} is not kept in the database`);
    return this.pinned(
      createPriceData(snapshot.data, { effectiveFrom: snapshot.effectiveFrom, source: snapshot.source, fingerprint }),
    );
  }

  private pinned(data: PriceData): PriceService {
    let service = this.services.get(data.fingerprint);
    if (service === undefined) {
      service = createPriceService({ data });
      this.services.set(data.fingerprint, service);
      for (const [fingerprint, kept] of this.services) {
        if (this.services.size <= KEPT) break;
        if (kept !== this.live && kept !== service) this.services.delete(fingerprint);
      }
    }
    return service;
  }
}
