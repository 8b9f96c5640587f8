/**
 * @fileoverview The analytics use cases: summary, daily, hourly, monthly, heatmap, model
 * breakdown, project summary and user status. Parameters are validated by the domain modules
 * (which throw {@link InvalidParamError} naming the parameter), SQL is asked only for instant
 * windows (db/queries/analytics.ts), and the domain folds turn rows into local days, months and
 * half-hours. Counts stay bigint until the wire. "Now" comes from the injected clock.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import {
  installSummary,
  lastSyncAt,
  listDayModelUsage,
  listModelsInWindow,
  listProjectTotals,
  listRollupRows,
  listSubscriptions,
  userCreatedAt,
  type RowFilter,
} from '../db/queries/analytics.js';
import { listPieces } from '../db/queries/day-pieces.js';
import { listActiveEntitlements } from '../db/queries/entitlements.js';
import { groupBySourceAndModel } from '../domain/breakdown.js';
import { epochDayOf, firstEpochDayOfMonth, formatEpochDay, monthIndexOf, type LocalDate } from '../domain/calendar.js';
import {
  dayColumnsBillable,
  dayColumnsToWire,
  foldDailyColumns,
  foldHalfHours,
  foldMonthlyColumnsToWire,
  halfHourRowsToWire,
} from '../domain/fold.js';
import { buildHeatmapFromDays, heatmapQueryFrom, resolveHeatmapRange, streakDaysOf, type DayValues } from '../domain/heatmap.js';
import { parseMonths, resolveDateRange, resolveDay, resolveMonthRange } from '../domain/ranges.js';
import { columnsFromRows, type UsageColumns } from '../domain/usage-columns.js';
import { sumTotals, type UsageRow } from '../domain/usage-row.js';
import { resolveZone, startsOfLocalEpochDays, type Zone, type ZoneParams } from '../domain/zones.js';
import { createCostAccumulator, totalsWithCost, type PriceService, type PricedUsage } from '../pricing/index.js';
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

/** Streaks are counted back this far at most (the interface's longest range, docs/interface.md). */
const MAX_STREAK_DAYS = 800;
/** Days before the grid read first when the streak reaches the grid's first day (doubled on each further read). */
const STREAK_SPAN_DAYS = 32;

/** Trimmed, lower-cased filter text; empty means absent. */
function normalizeFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  return v === '' ? undefined : v;
}

interface Filters {
  readonly source: string | undefined;
  readonly model: string | undefined;
}

/** A pro grant as the user status reports it. */
export interface ProGrant {
  readonly source: string;
  readonly effectiveFrom: number;
  readonly effectiveTo: number | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export interface AnalyticsDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly prices: PriceService;
  readonly syncMinIntervalMinutes: number;
  /** Active pro grants of a user at an instant; defaults to the `entitlements` table ({@link activeProGrants}). */
  readonly activeProGrants?: (userId: string, nowMs: number) => Promise<readonly ProGrant[]>;
}

export class AnalyticsService {
  constructor(private readonly deps: AnalyticsDeps) {}

  private get db() {
    return this.deps.db;
  }

  private filters(q: { readonly source?: string; readonly model?: string }): Filters {
    return { source: normalizeFilter(q.source), model: normalizeFilter(q.model) };
  }

  private zone(q: ZoneParams): Zone {
    return resolveZone({ tz: q.tz, tz_offset_minutes: q.tz_offset_minutes });
  }

  private modelIdentity(model: string | undefined): { model_id: string | null; model: string | null } {
    if (model === undefined) return { model_id: null, model: null };
    const id = this.deps.prices.identify(model);
    return { model_id: id.model_id, model: id.model };
  }

  /** Keeps the rows whose raw model matches the filter (raw name or canonical id). */
  private keepModel<T extends { readonly model: string }>(rows: T[], model: string | undefined): T[] {
    if (model === undefined) return rows;
    const memo = new Map<string, boolean>();
    return rows.filter((r) => {
      let ok = memo.get(r.model);
      if (ok === undefined) {
        ok = this.deps.prices.matchesModelFilter(r.model, model);
        memo.set(r.model, ok);
      }
      return ok;
    });
  }

  /** Totals and pricing of a window at (UTC day, source, model) grain. */
  private async priced(userId: string, startMs: number, endMs: number, f: Filters) {
    const usage = await timedQuery(() => listDayModelUsage(this.db, userId, startMs, endMs, f.source));
    const acc = createCostAccumulator(this.deps.prices, { sourceFilter: f.source });
    acc.addAll(this.keepModel(usage.edgeRows, f.model));
    for (const p of this.keepModel(usage.priced, f.model)) acc.addPriced(p);
    return { totals: totalsWithCost(sumTotals(this.keepModel(usage.totals, f.model)), acc.totalMicros()), pricing: acc.summary() };
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
  ): Promise<UsageColumns> {
    if (f.source === undefined && f.model === undefined) {
      return timedQuery(() => listPieces(this.db, userId, startMs, endMs, cutsMs));
    }
    const filter: RowFilter = { source: f.source };
    if (f.model !== undefined) {
      const model = f.model;
      const models = await timedQuery(() => listModelsInWindow(this.db, userId, startMs, endMs, f.source));
      const matching = models.filter((m) => this.deps.prices.matchesModelFilter(m, model));
      return columnsFromRows(await timedQuery(() => listRollupRows(this.db, userId, startMs, endMs, { ...filter, models: matching })));
    }
    return columnsFromRows(await timedQuery(() => listRollupRows(this.db, userId, startMs, endMs, filter)));
  }

  async summary(userId: string, q: SummaryQuery): Promise<SummaryBody> {
    const zone = this.zone(q);
    const f = this.filters(q);
    const range = resolveDateRange(q, zone, this.deps.clock.now());
    const { totals, pricing } = await this.priced(userId, range.startMs, range.endMs, f);
    return { from: range.from, to: range.to, days: range.days, ...this.modelIdentity(f.model), totals, pricing };
  }

  async daily(userId: string, q: DailyQuery): Promise<DailyBody> {
    const zone = this.zone(q);
    const f = this.filters(q);
    const range = resolveDateRange(q, zone, this.deps.clock.now());
    const first = epochDayOf(range.from);
    const cuts = startsOfLocalEpochDays(zone, Array.from({ length: range.days + 1 }, (_, i) => first + i));
    const [priced, rows] = await Promise.all([
      this.priced(userId, range.startMs, range.endMs, f),
      this.foldRows(userId, range.startMs, range.endMs, cuts, f),
    ]);
    return {
      from: range.from,
      to: range.to,
      days: range.days,
      ...this.modelIdentity(f.model),
      data: dayColumnsToWire(foldDailyColumns(rows, zone, range.from, range.to)),
      summary: { totals: priced.totals, pricing: priced.pricing },
    };
  }

  async hourly(userId: string, q: HourlyQuery): Promise<HourlyBody> {
    const zone = this.zone(q);
    const f = this.filters(q);
    const day = resolveDay(q.day, zone, this.deps.clock.now());
    const [raw, last] = await Promise.all([
      timedQuery(() => listRollupRows(this.db, userId, day.startMs, day.endMs, { source: f.source })),
      timedQuery(() => lastSyncAt(this.db.kysely, userId)),
    ]);
    const rows = this.keepModel(raw, f.model);
    return {
      day: day.day,
      data: halfHourRowsToWire(foldHalfHours(rows, zone, day.day)),
      sync: { last_sync_at: iso(last), min_interval_minutes: this.deps.syncMinIntervalMinutes },
    };
  }

  async monthly(userId: string, q: MonthlyQuery): Promise<MonthlyBody> {
    const zone = this.zone(q);
    const f = this.filters(q);
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
    const f = this.filters(q);
    const range = resolveHeatmapRange({ to: q.to, weeks: q.weeks, week_starts_on: q.week_starts_on }, zone, this.deps.clock.now());
    const load = async (from: LocalDate, to: LocalDate): Promise<DayValues> => {
      const firstDay = epochDayOf(from);
      const n = epochDayOf(to) - firstDay + 1;
      const starts = startsOfLocalEpochDays(zone, Array.from({ length: n + 1 }, (_, i) => firstDay + i));
      const rows = await this.foldRows(userId, starts[0] as number, starts[n] as number, starts, f);
      return { firstDay, values: dayColumnsBillable(foldDailyColumns(rows, zone, from, to)) };
    };
    let days = await load(range.from, range.to);
    // While the streak covers every loaded day, load older days too (up to the interface's longest
    // range), in growing spans so that a streak just past the grid costs a short read.
    const oldest = epochDayOf(heatmapQueryFrom(range, MAX_STREAK_DAYS));
    const toDay = epochDayOf(range.to);
    for (let span = STREAK_SPAN_DAYS; days.firstDay > oldest && streakDaysOf(days, range.to) >= toDay - days.firstDay + 1; span *= 2) {
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
    const usage = await timedQuery(() => listDayModelUsage(this.db, userId, range.startMs, range.endMs, source));
    const prices = this.deps.prices;
    const groups = groupBySourceAndModel(usage.totals, (raw) => {
      const id = prices.identify(raw);
      return { ...id, priced_as: id.priced_as ?? (id.known ? null : prices.defaultIdentity.model_id) };
    });
    // Costs by (source, raw model): stored whole days plus priced edge rows, so each group costs exactly its own usage.
    const costByKey = new Map<string, { priced: PricedUsage[]; edges: UsageRow[] }>();
    const costsOf = (s: string, m: string) => {
      const key = `${s}\u0000${m}`;
      let c = costByKey.get(key);
      if (c === undefined) costByKey.set(key, (c = { priced: [], edges: [] }));
      return c;
    };
    for (const p of usage.priced) costsOf(p.source, p.model).priced.push(p);
    for (const r of usage.edgeRows) costsOf(r.source, r.model).edges.push(r);
    const priceOf = (totalsRows: readonly UsageRow[]) => {
      const acc = createCostAccumulator(prices);
      const seen = new Set<string>();
      for (const t of totalsRows) {
        const key = `${t.source}\u0000${t.model}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const c = costByKey.get(key);
        if (c === undefined) continue;
        acc.addAll(c.edges);
        for (const p of c.priced) acc.addPriced(p);
      }
      return acc.totalMicros();
    };
    const all = createCostAccumulator(prices, { sourceFilter: source });
    all.addAll(usage.edgeRows);
    for (const p of usage.priced) all.addPriced(p);
    return {
      from: range.from,
      to: range.to,
      days: range.days,
      sources: groups.map((g) => ({
        source: g.source,
        totals: totalsWithCost(g.totals, priceOf(g.rows)),
        models: g.models.map((m) => ({
          model_id: m.model_id,
          model: m.model,
          ...(m.priced_as !== null ? { priced_as: m.priced_as } : {}),
          totals: totalsWithCost(m.totals, priceOf(m.rows)),
        })),
      })),
      pricing: all.summary(),
    };
  }

  async projectSummary(userId: string, q: ProjectSummaryQuery): Promise<ProjectSummaryBody> {
    const limit = parseProjectLimit(q.limit);
    const source = normalizeFilter(q.source);
    const rows = await timedQuery(() => listProjectTotals(this.db.kysely, userId, limit, source));
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
      })),
    };
  }

  async userStatus(userId: string): Promise<UserStatusBody> {
    const now = this.deps.clock.now();
    const asOf = new Date(now).toISOString();
    const grantsOf = this.deps.activeProGrants ?? ((id: string, at: number) => activeProGrants(this.db, id, at));
    const [createdAt, grants, subs, install] = await Promise.all([
      timedQuery(() => userCreatedAt(this.db.kysely, userId)),
      timedQuery(() => grantsOf(userId, now)),
      timedQuery(() => listSubscriptions(this.db.kysely, userId)),
      timedQuery(() => installSummary(this.db.kysely, userId)),
    ]);
    const sources = [...new Set(grants.map((g) => g.source))].sort();
    const ends = grants.map((g) => g.effectiveTo);
    const expiresAt = grants.length === 0 || ends.includes(null) ? null : Math.max(...(ends as number[]));
    return {
      user_id: userId,
      created_at: createdAt === undefined ? null : new Date(createdAt).toISOString(),
      pro: { active: grants.length > 0, sources, expires_at: iso(expiresAt), as_of: asOf },
      subscriptions: {
        as_of: asOf,
        items: subs.map((s) => ({
          tool: s.tool,
          provider: s.provider,
          product: s.product,
          plan_type: s.planType,
          rate_limit_tier: s.rateLimitTier,
          device_id: s.deviceId,
          observed_at: new Date(s.updatedAt).toISOString(),
          details: parseDetails(s.details),
        })),
      },
      install: {
        as_of: asOf,
        has_active_device: install.activeDevices > 0,
        active_devices: install.activeDevices,
        last_upload_at: iso(install.lastSeenAt),
        last_sync_at: iso(install.lastSyncAt),
      },
    };
  }
}

/** Pro grants in force: the operator's entitlements (admin command line), not revoked, not expired. */
export async function activeProGrants(db: Db, userId: string, nowMs: number): Promise<ProGrant[]> {
  const rows = await listActiveEntitlements(db.kysely, userId, nowMs);
  return rows.map((e) => ({ source: e.source, effectiveFrom: e.grantedAt, effectiveTo: e.expiresAt }));
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

