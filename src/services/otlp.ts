/**
 * @fileoverview The OTLP receiver's service (docs/otlp.md): what an export counts — per-request
 * usage deduplicated by id, counter increments of cumulative or delta series — folded into
 * running sums per (device, half-hour, source, model), whose absolute buckets go through the same
 * ingest writer as `svc-ingest`. A device's exports are applied one at a time (in this process),
 * so its running sums and stored buckets move in step; across processes, the device's state
 * version (otlp-state.ts) makes an export counted against state that moved be counted again.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { pruneOtlpState, type SeriesRow, type SumRow } from '../db/queries/otlp.js';
import { isOtlpStateMoved } from '../db/queries/otlp-writes.js';
import { inTransaction } from '../db/transaction.js';
import { DAY_MS, EARLIEST_HOUR_START, HALF_HOUR_MS } from '../domain/calendar.js';
import { Busy, DomainError } from '../domain/errors.js';
import type { IngestWriter } from '../ingest/types.js';
import { qwenCounterColumns, type Columns } from '../otlp/agents.js';
import {
  Extracted,
  extractLogs,
  extractMetrics,
  extractTraces,
  type CounterPoint,
  type RequestUsage,
} from '../otlp/extract.js';
import type { Signal } from '../otlp/proto.js';
import type { ChannelService } from './channels.js';
import { OtlpState } from './otlp-state.js';
import { addTo, bucketOf, groupKey, increment, IncrementSums } from './otlp-sums.js';

/** How long counted ids and idle cumulative series are kept. */
export const OTLP_RETENTION_MS = 14 * DAY_MS;
const PRUNE_EVERY_MS = 60 * 60_000;
/** Times an export is counted while other processes keep moving its device's state (then 503, retried by exporters). */
const MAX_ATTEMPTS = 8;

export interface OtlpOutcome {
  /** Points, records or spans not counted. */
  rejected: number;
  /** Why, by reason with counts ('' when nothing was rejected). */
  message: string;
}

export interface OtlpDeps {
  db: Db;
  clock: Clock;
  writer: IngestWriter;
  channels: ChannelService;
  onUsageChanged?: ((userId: string) => void) | undefined;
  /** This process is the only writer of the database (SQLite, one server process): the state is remembered. */
  soleWriter: boolean;
}

/** What an export counts, once admitted: its device's per-request usage and counter points. */
interface Counted {
  device: { userId: string; deviceId: string };
  requests: RequestUsage[];
  points: CounterPoint[];
  now: number;
}

interface Item {
  source: string;
  model: string;
  hourStart: number;
}

export class OtlpService {
  private readonly queues = new Map<string, Promise<unknown>>();
  private lastPrune = 0;
  private readonly state: OtlpState;
  constructor(private readonly deps: OtlpDeps) {
    this.state = new OtlpState(deps.db, deps.soleWriter);
  }

  /** Counts one decoded export request of a device. */
  async export(signal: Signal, request: unknown, device: { userId: string; deviceId: string }): Promise<OtlpOutcome> {
    const found = new Extracted();
    if (signal === 'logs') extractLogs(request as Parameters<typeof extractLogs>[0], found);
    else if (signal === 'traces') extractTraces(request as Parameters<typeof extractTraces>[0], found);
    else extractMetrics(request as Parameters<typeof extractMetrics>[0], found);
    const now = this.deps.clock.now();
    const requests = found.requests.filter((r) => this.admit(r, found, now));
    const points = found.points.filter((p) => this.admit(p, found, now));
    const sources = [...requests, ...points].map((u) => u.source);
    if (sources.length > 0) {
      const refused = await this.deps.channels.refusedSources(device.deviceId, sources, 'otlp');
      if (refused.size > 0) {
        const keep = <T extends { source: string }>(list: T[]) =>
          list.filter((u) => {
            if (!refused.has(u.source)) return true;
            found.ignore(
              `this device uploads ${u.source} through the tokentally CLI (svc-ingest); one channel per source`,
            );
            return false;
          });
        requests.splice(0, requests.length, ...keep(requests));
        points.splice(0, points.length, ...keep(points));
      }
      if (requests.length + points.length > 0)
        await this.serially(device.deviceId, () => this.applyAgain({ device, requests, points, now }, found));
    }
    this.pruneNowAndThen(now);
    let rejected = 0;
    const reasons: string[] = [];
    for (const [reason, n] of found.ignored) {
      rejected += n;
      reasons.push(`${n} ignored: ${reason}`);
    }
    return { rejected, message: reasons.join('; ').slice(0, 2000) };
  }

  /** Normalises an item's model and half-hour in place; false (tallied) when svc-ingest would refuse it. */
  private admit(
    item: { model: string | undefined; at: number } & Partial<Item>,
    found: Extracted,
    now: number,
  ): boolean {
    const model = (item.model ?? '').trim().toLowerCase() || 'unknown';
    if (model.length > 128) {
      found.ignore('the model name is longer than 128 characters');
      return false;
    }
    const hourStart = Math.floor(item.at / HALF_HOUR_MS) * HALF_HOUR_MS;
    if (!(hourStart >= EARLIEST_HOUR_START && hourStart <= now + DAY_MS)) {
      found.ignore('the time lies outside 2020-01-01 to one day from now');
      return false;
    }
    item.model = model;
    item.hourStart = hourStart;
    return true;
  }

  private serially<T>(deviceId: string, fn: () => Promise<T>): Promise<T> {
    const before = this.queues.get(deviceId) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.queues.set(deviceId, tail);
    void tail.then(() => {
      if (this.queues.get(deviceId) === tail) this.queues.delete(deviceId);
    });
    return run;
  }

  /**
   * Applies an export, counted again while another process moved the device's state between the
   * read and the write (only when several processes write the database; docs/otlp.md).
   */
  private async applyAgain(counted: Counted, found: Extracted): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      // What an attempt ignores is taken in only from the attempt that counts.
      const tally = new Extracted();
      try {
        await this.apply(counted, tally);
      } catch (error) {
        if (!isOtlpStateMoved(error)) throw error;
        if (attempt < MAX_ATTEMPTS) continue;
        throw new Busy('The device is exporting from several places at once; send again.', { retryAfterSeconds: 1 });
      }
      for (const [reason, n] of tally.ignored) found.ignore(reason, n);
      return;
    }
  }

  private async apply({ device, requests, points, now }: Counted, found: Extracted): Promise<void> {
    // Read first: the write is refused if another process wrote the state after this read.
    const version = await this.state.version(device.deviceId);
    const deltas = new Map<string, SumRow>();
    // Per-request usage: an id counts once (within the export and across exports).
    const fresh = new Map<string, (typeof requests)[number]>();
    for (const r of requests) if (!fresh.has(r.id)) fresh.set(r.id, r);
    const seen = await this.state.seen(device.deviceId, [...fresh.keys()]);
    for (const [id, r] of fresh) {
      if (seen.has(id)) continue;
      const { hourStart, model } = r as typeof r & Item;
      addTo(deltas, hourStart, r.source, model, r.columns);
    }
    // Counter points, in time order per series.
    const series = await this.state.series(device.deviceId, [
      ...new Set(points.filter((p) => p.cumulative).map((p) => p.seriesKey)),
    ]);
    const changedSeries = new Map<string, SeriesRow>();
    const increments = new IncrementSums();
    for (const p of [...points].sort((a, b) => a.at - b.at)) {
      const last = p.cumulative ? (changedSeries.get(p.seriesKey) ?? series.get(p.seriesKey)) : undefined;
      const step = increment(p, last);
      if (step.state) changedSeries.set(p.seriesKey, step.state);
      const { hourStart, model } = p as typeof p & Item;
      increments.add(p.source, hourStart, model, p.type, step.increment);
    }
    // Increments are never negative: a group adds to the sums when one of its points brought any.
    for (const g of increments.list) {
      const columns: Columns | string = qwenCounterColumns(g.type, g.increment);
      if (typeof columns === 'string') found.ignore(columns, g.points);
      else if (g.increment > 0n) addTo(deltas, g.hourStart, g.source, g.model, columns);
    }
    const seriesChanged = [...changedSeries.values()];
    if (deltas.size === 0) {
      // Nothing to count (no new id; unchanged cumulative values): only series states may move.
      if (seriesChanged.length > 0)
        await this.state.save(device, { sums: [], series: seriesChanged, seen: [], version }, now);
      return;
    }
    const sums = new Map<string, SumRow>();
    const hours = [...new Set([...deltas.values()].map((d) => d.hourStart))];
    for (const row of await this.state.sums(device.deviceId, hours))
      sums.set(groupKey(row.hourStart, row.source, row.model), row);
    for (const d of deltas.values()) addTo(sums, d.hourStart, d.source, d.model, d);
    const changed = [...deltas.keys()].map((k) => sums.get(k) as SumRow);
    const changes = {
      sums: changed,
      series: seriesChanged,
      seen: [...fresh.keys()].filter((id) => !seen.has(id)),
      version,
    };
    try {
      // The buckets and the state behind them (sums, series, ids) are stored in one transaction.
      const result = await this.deps.writer.apply({
        userId: device.userId,
        deviceId: device.deviceId,
        now,
        buckets: changed.map(bucketOf),
        subscriptions: undefined,
        otlp: changes,
      });
      if (result.inserted > 0) this.deps.onUsageChanged?.(device.userId);
    } catch (error) {
      // A bound of svc-ingest (tokens per day, buckets per half-hour, stored buckets): nothing of this export counts.
      if (!(error instanceof DomainError)) throw error;
      found.ignore(`not stored: ${error.message}`, requests.length + points.length);
      return;
    }
    this.state.remember(device.deviceId, changes);
  }

  private pruneNowAndThen(now: number): void {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    void inTransaction(this.deps.db, (tx) => pruneOtlpState(tx, now - OTLP_RETENTION_MS)).then(
      () => this.state.forget(),
      () => undefined,
    );
  }
}
