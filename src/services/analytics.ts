/**
 * @fileoverview The analytics use cases: summary, daily, hourly, monthly, heatmap, model
 * breakdown, project summary and user status. Each parameter arrives read by its domain parser at
 * validation (schemas/text-params.ts); what only their combination decides (`from` after `to`, a
 * range too long) the domain modules refuse here, with an `InvalidParamError` naming the
 * parameter (domain/param-error.ts). SQL is asked only for instant windows
 * (db/queries/analytics.ts), and the domain folds turn rows into local days, months and half-hours.
 * Counts stay bigint until the wire. "Now" comes from the injected clock.
 *
 * An answer with costs is priced as a whole with the price data its stored costs were read priced
 * by (price-book.ts): the stored costs' fingerprint comes with them, and should it not be the data
 * the answer was priced with (a repricing ended meanwhile), the answer is made again with it.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import {
  lastSyncAt,
  listDayModelUsage,
  listModelsInWindow,
  listProjectTotals,
  listRollupRows,
  type RowFilter,
} from '../db/queries/analytics.js';
import { listPieces } from '../db/queries/day-pieces.js';
import { epochDayOf, firstEpochDayOfMonth, formatEpochDay, monthIndexOf, type LocalDate } from '../domain/calendar.js';
import {
  dayColumnsBillable,
  dayColumnsToWire,
  foldDailyColumns,
  foldHalfHours,
  foldMonthlyColumnsToWire,
  halfHourRowsToWire,
} from '../domain/fold.js';
import {
  buildHeatmapFromDays,
  heatmapQueryFrom,
  resolveHeatmapRange,
  streakDaysOf,
  type DayValues,
} from '../domain/heatmap.js';
import { parseMonths, resolveDateRange, resolveDay, resolveMonthRange } from '../domain/ranges.js';
import { columnsFromRows, type UsageColumns } from '../domain/usage-columns.js';
import { sumCounts } from '../domain/token-counts.js';
import { resolveZone, startsOfLocalEpochDays, type Zone, type ZoneParams } from '../domain/zones.js';
import { createCostAccumulator, formatMicros, totalsWithCost, type PriceService } from '../pricing/index.js';
import { breakdownBody } from './analytics-breakdown.js';
import { projectCosts } from './project-costs.js';
import { deviceDayModelUsage, deviceFilter, deviceRows } from './analytics-device.js';
import type { PriceSource } from '../pricing/index.js';
import { parseProjectLimit } from '../domain/project-limit.js';
import type {
  BreakdownBody,
  BreakdownQuery,
  DailyBody,
  DailyQuery,
  HeatmapBody,
  HeatmapQuery,
  HourlyBody,
  HourlyQuery,
  MonthlyBody,
  MonthlyQuery,
  ProjectSummaryBody,
  ProjectSummaryQuery,
  SummaryBody,
  SummaryQuery,
  UserStatusBody,
} from '../schemas/usage.js';
import { timedQuery } from './request-timer.js';
import { iso, userStatusBody, type ProGrant } from './user-status.js';

/** Streaks are counted back this far at most (the interface's longest range, docs/interface.md). */
const MAX_STREAK_DAYS = 800;
/** Days before the grid read first when the streak reaches the grid's first day (doubled on each further read). */
const STREAK_SPAN_DAYS = 32;
/** An answer is made at most this often while the stored costs' data keeps changing under it. */
const MAX_PRICED_ATTEMPTS = 5;

/** Trimmed, lower-cased filter text; empty means absent. */
function normalizeFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  return v === '' ? undefined : v;
}

interface Filters {
  readonly source: string | undefined;
  readonly model: string | undefined;
  /** The device filter's device number (analytics-device.ts); undefined for all devices. */
  readonly device: bigint | undefined;
}

export interface AnalyticsDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** The price data of the stored costs (price-book.ts). */
  readonly prices: PriceSource<PriceService>;
  readonly syncMinIntervalMinutes: number;
  /** Active pro grants of a user at an instant; defaults to the `entitlements` table (user-status.ts). */
  readonly activeProGrants?: (userId: string, nowMs: number) => Promise<readonly ProGrant[]>;
  /** MAX_STORED_BUCKETS_PER_USER, which the user status reports beside the account's stored buckets. */
  readonly maxStoredBuckets: number;
}

export class AnalyticsService {
  constructor(private readonly deps: AnalyticsDeps) {}

  private get db() {
    return this.deps.db;
  }

  private async filters(
    userId: string,
    q: { readonly source?: string; readonly model?: string; readonly device_id?: string },
  ): Promise<Filters> {
    return {
      source: normalizeFilter(q.source),
      model: normalizeFilter(q.model),
      device: await deviceFilter(this.db, userId, q.device_id),
    };
  }

  /** Usage of a window at (UTC day, source, model) grain: the account's read models, or one device's buckets. */
  private dayModelUsage(userId: string, startMs: number, endMs: number, f: Pick<Filters, 'source' | 'device'>) {
    return timedQuery(() =>
      f.device === undefined
        ? listDayModelUsage(this.db, userId, startMs, endMs, f.source)
        : deviceDayModelUsage(this.db, f.device, startMs, endMs, f.source),
    );
  }

  private zone(q: ZoneParams): Zone {
    return resolveZone({ tz: q.tz, tz_offset_minutes: q.tz_offset_minutes });
  }

  private modelIdentity(
    model: string | undefined,
    prices: PriceService,
  ): { model_id: string | null; model: string | null } {
    if (model === undefined) return { model_id: null, model: null };
    const id = prices.identify(model);
    return { model_id: id.model_id, model: id.model };
  }

  /** Keeps the rows whose raw model matches the filter (raw name or canonical id). */
  private keepModel<T extends { readonly model: string }>(
    rows: T[],
    model: string | undefined,
    prices: PriceService,
  ): T[] {
    if (model === undefined) return rows;
    const memo = new Map<string, boolean>();
    return rows.filter((r) => {
      let ok = memo.get(r.model);
      if (ok === undefined) {
        ok = prices.matchesModelFilter(r.model, model);
        memo.set(r.model, ok);
      }
      return ok;
    });
  }

  /**
   * Makes an answer with the price data of the stored costs it reads: first with the data this
   * process last saw them priced by, again with the data they were read priced by when that differs.
   */
  private async withStoredPrices<T>(
    answer: (prices: PriceService) => Promise<{ readonly body: T; readonly pricedBy: string | null }>,
  ): Promise<T> {
    let prices = this.deps.prices.serving();
    for (let attempt = 1; ; attempt++) {
      const { body, pricedBy } = await answer(prices);
      if (pricedBy === null || pricedBy === prices.fingerprint) return body;
      if (attempt === MAX_PRICED_ATTEMPTS)
        throw new Error('the price data of the stored costs kept changing during the answer');
      prices = await this.deps.prices.of(pricedBy);
    }
  }

  /** Totals and pricing of a window at (UTC day, source, model) grain, and the data that priced its stored costs. */
  private async priced(userId: string, startMs: number, endMs: number, f: Filters, prices: PriceService) {
    const usage = await this.dayModelUsage(userId, startMs, endMs, f);
    const acc = createCostAccumulator(prices, { sourceFilter: f.source });
    acc.addAll(this.keepModel(usage.edgeRows, f.model, prices));
    for (const p of this.keepModel(usage.priced, f.model, prices)) acc.addPriced(p);
    return {
      totals: totalsWithCost(sumCounts(this.keepModel(usage.totals, f.model, prices)), acc.totalMicros()),
      pricing: acc.summary(),
      pricedBy: usage.pricedBy,
    };
  }

  /**
   * Rows for a local-day/month fold over `[startMs, endMs)`, in columns. Unfiltered: pieces of the
   * packed days cut at `cutsMs` (one row a day). Filtered: the raw rollup rows of the matching source/models.
   */
  private async foldRows(
    userId: string,
    startMs: number,
    endMs: number,
    cutsMs: readonly number[],
    f: Filters,
    prices: PriceService = this.deps.prices.serving(),
  ): Promise<UsageColumns> {
    if (f.device !== undefined) {
      const device = f.device;
      const rows = await timedQuery(() => deviceRows(this.db, device, startMs, endMs, f.source));
      return columnsFromRows(this.keepModel(rows, f.model, prices));
    }
    if (f.source === undefined && f.model === undefined) {
      return timedQuery(() => listPieces(this.db, userId, startMs, endMs, cutsMs));
    }
    const filter: RowFilter = { source: f.source };
    if (f.model !== undefined) {
      const model = f.model;
      const models = await timedQuery(() => listModelsInWindow(this.db, userId, startMs, endMs, f.source));
      const matching = models.filter((m) => prices.matchesModelFilter(m, model));
      return columnsFromRows(
        await timedQuery(() => listRollupRows(this.db, userId, startMs, endMs, { ...filter, models: matching })),
      );
    }
    return columnsFromRows(await timedQuery(() => listRollupRows(this.db, userId, startMs, endMs, filter)));
  }

  async summary(userId: string, q: SummaryQuery): Promise<SummaryBody> {
    const zone = this.zone(q);
    const f = await this.filters(userId, q);
    const range = resolveDateRange(q, zone, this.deps.clock.now());
    return this.withStoredPrices(async (prices) => {
      const { totals, pricing, pricedBy } = await this.priced(userId, range.startMs, range.endMs, f, prices);
      return {
        pricedBy,
        body: {
          from: range.from,
          to: range.to,
          days: range.days,
          ...this.modelIdentity(f.model, prices),
          totals,
          pricing,
        },
      };
    });
  }

  async daily(userId: string, q: DailyQuery): Promise<DailyBody> {
    const zone = this.zone(q);
    const f = await this.filters(userId, q);
    const range = resolveDateRange(q, zone, this.deps.clock.now());
    const first = epochDayOf(range.from);
    const cuts = startsOfLocalEpochDays(
      zone,
      Array.from({ length: range.days + 1 }, (_, i) => first + i),
    );
    return this.withStoredPrices(async (prices) => {
      const [priced, rows] = await Promise.all([
        this.priced(userId, range.startMs, range.endMs, f, prices),
        this.foldRows(userId, range.startMs, range.endMs, cuts, f, prices),
      ]);
      const body: DailyBody = {
        from: range.from,
        to: range.to,
        days: range.days,
        ...this.modelIdentity(f.model, prices),
        data: dayColumnsToWire(foldDailyColumns(rows, zone, range.from, range.to)),
        summary: { totals: priced.totals, pricing: priced.pricing },
      };
      return { pricedBy: priced.pricedBy, body };
    });
  }

  async hourly(userId: string, q: HourlyQuery): Promise<HourlyBody> {
    const zone = this.zone(q);
    const f = await this.filters(userId, q);
    const day = resolveDay(q.day, zone, this.deps.clock.now());
    const device = f.device;
    const [raw, last] = await Promise.all([
      timedQuery(() =>
        device === undefined
          ? listRollupRows(this.db, userId, day.startMs, day.endMs, { source: f.source })
          : deviceRows(this.db, device, day.startMs, day.endMs, f.source),
      ),
      timedQuery(() => lastSyncAt(this.db.kysely, userId)),
    ]);
    const rows = this.keepModel(raw, f.model, this.deps.prices.serving());
    return {
      day: day.day,
      data: halfHourRowsToWire(foldHalfHours(rows, zone, day.day)),
      sync: { last_sync_at: iso(last), min_interval_minutes: this.deps.syncMinIntervalMinutes },
    };
  }

  async monthly(userId: string, q: MonthlyQuery): Promise<MonthlyBody> {
    const zone = this.zone(q);
    const f = await this.filters(userId, q);
    const months = parseMonths(q.months);
    const range = resolveMonthRange({ to: q.to, months }, zone, this.deps.clock.now());
    const firstMonth = monthIndexOf(range.from);
    const monthStartDays = Array.from({ length: months + 1 }, (_, i) => firstEpochDayOfMonth(firstMonth + i));
    const cuts = startsOfLocalEpochDays(zone, [...monthStartDays, epochDayOf(range.to) + 1]);
    const rows = await this.foldRows(userId, range.startMs, range.endMs, cuts, f);
    return { from: range.from, to: range.to, months, data: foldMonthlyColumnsToWire(rows, zone, range.to, months) };
  }

  async heatmap(userId: string, q: HeatmapQuery): Promise<HeatmapBody> {
    const zone = this.zone(q);
    const f = await this.filters(userId, q);
    const range = resolveHeatmapRange(
      { to: q.to, weeks: q.weeks, week_starts_on: q.week_starts_on },
      zone,
      this.deps.clock.now(),
    );
    const load = async (from: LocalDate, to: LocalDate): Promise<DayValues> => {
      const firstDay = epochDayOf(from);
      const n = epochDayOf(to) - firstDay + 1;
      const starts = startsOfLocalEpochDays(
        zone,
        Array.from({ length: n + 1 }, (_, i) => firstDay + i),
      );
      const rows = await this.foldRows(userId, starts[0] as number, starts[n] as number, starts, f);
      return { firstDay, values: dayColumnsBillable(foldDailyColumns(rows, zone, from, to)) };
    };
    let days = await load(range.from, range.to);
    // While the streak covers every loaded day, load older days too (up to the interface's longest
    // range), in growing spans so that a streak just past the grid costs a short read.
    const oldest = epochDayOf(heatmapQueryFrom(range, MAX_STREAK_DAYS));
    const toDay = epochDayOf(range.to);
    for (
      let span = STREAK_SPAN_DAYS;
      days.firstDay > oldest && streakDaysOf(days, range.to) >= toDay - days.firstDay + 1;
      span *= 2
    ) {
      const from = Math.max(oldest, days.firstDay - span);
      const older = await load(formatEpochDay(from), formatEpochDay(days.firstDay - 1));
      days = { firstDay: older.firstDay, values: [...older.values, ...days.values] };
    }
    return buildHeatmapFromDays(range, days);
  }

  async modelBreakdown(userId: string, q: BreakdownQuery): Promise<BreakdownBody> {
    const zone = this.zone(q);
    const source = normalizeFilter(q.source);
    const range = resolveDateRange(q, zone, this.deps.clock.now());
    const device = await deviceFilter(this.db, userId, q.device_id);
    return this.withStoredPrices(async (prices) => {
      const usage = await this.dayModelUsage(userId, range.startMs, range.endMs, { source, device });
      return { pricedBy: usage.pricedBy, body: breakdownBody(range, source, usage, prices) };
    });
  }

  async projectSummary(userId: string, q: ProjectSummaryQuery): Promise<ProjectSummaryBody> {
    const limit = parseProjectLimit(q.limit);
    const source = normalizeFilter(q.source);
    const rows = await timedQuery(() => listProjectTotals(this.db.kysely, userId, limit, source));
    const keys = rows.map((r) => r.projectKey);
    const costs =
      q.cost === '1' ? await timedQuery(() => projectCosts(this.db, this.deps.prices, userId, keys, source)) : null;
    return {
      from: null,
      to: null,
      all_time: true,
      generated_at: new Date(this.deps.clock.now()).toISOString(),
      entries: rows.map((r) => ({
        project_key: r.projectKey,
        project_ref: r.projectRef ?? '',
        total_tokens: r.total.toString(),
        billable_total_tokens: r.billable.toString(),
        ...(costs ? { total_cost_usd: formatMicros(costs.get(r.projectKey) ?? 0n) } : {}),
      })),
    };
  }

  userStatus(userId: string): Promise<UserStatusBody> {
    return userStatusBody(this.deps, userId);
  }
}
