/** @fileoverview What the overview reads: every answer for one range, zone and grouping, in parallel. */
import { call } from '../api.js';
import type { HeatCell } from '../components/heatmap.js';
import { addDays, type IsoDate } from '../lib/dates.js';
import { previousPeriod, type DateRange, type WeekStart } from '../lib/ranges.js';
import { layersWithRest, type HourlyRow, type Layer, type TokenRow, type Totals } from '../lib/series.js';

export interface ModelRow {
  model_id: string;
  model: string;
  totals: Totals;
  priced_as?: string | null;
}
export interface SourceRow {
  source: string;
  totals: Totals;
  models: ModelRow[];
}
export interface Breakdown {
  sources: SourceRow[];
  pricing: { unpriced_models?: string[] };
}
export interface Summary {
  totals: Totals;
}
export type DailyRow = TokenRow & { day: string };
export interface Daily {
  data: DailyRow[];
  summary: { totals: Totals };
}
export interface Hourly {
  day: string;
  data: HourlyRow[];
  sync: { last_sync_at: string | null };
}
export interface Heatmap {
  weeks: Array<Array<HeatCell | null>>;
  active_days: number;
  streak_days: number;
  week_starts_on: 'sun' | 'mon';
}
export interface Monthly {
  data: Array<TokenRow & { month: string }>;
}
export interface Projects {
  entries: Array<{ project_key: string; project_ref: string; total_tokens: string; billable_total_tokens: string }>;
}

export type StackBy = 'source' | 'model';

export interface Trend {
  /** One x per day, or per half-hour for a one-day range. */
  kind: 'daily' | 'hourly';
  xs: string[];
  layers: Layer[];
  /** Per layer: cost per billable token over the range (for the cost view). */
  costRates: number[];
  hourly?: Hourly;
  daily?: Daily;
}

export interface OverviewData {
  summary: Summary;
  previous: Summary;
  daily: Daily;
  previousDaily: Daily;
  breakdown: Breakdown;
  trend: Trend;
}

const billable = (r: TokenRow) => Number(r.billable_total_tokens);
const rate = (t: Totals) =>
  Number(t.billable_total_tokens) > 0 ? Number(t.total_cost_usd) / Number(t.billable_total_tokens) : 0;

/** The top keys to stack by (at most 5; the rest is "other"). */
function stackKeys(
  breakdown: Breakdown,
  by: StackBy,
): Array<{ key: string; param: Record<string, string>; totals: Totals }> {
  if (by === 'source') {
    return [...breakdown.sources]
      .sort((a, b) => billable(b.totals) - billable(a.totals))
      .slice(0, 5)
      .map((s) => ({ key: s.source, param: { source: s.source }, totals: s.totals }));
  }
  const models = new Map<string, { name: string; totals: Totals; billable: number; cost: number }>();
  for (const s of breakdown.sources) {
    for (const m of s.models) {
      const seen = models.get(m.model_id) ?? { name: m.model, totals: m.totals, billable: 0, cost: 0 };
      seen.billable += billable(m.totals);
      seen.cost += Number(m.totals.total_cost_usd);
      models.set(m.model_id, seen);
    }
  }
  return [...models.entries()]
    .sort((a, b) => b[1].billable - a[1].billable)
    .slice(0, 5)
    .map(([id, m]) => ({
      key: m.name,
      param: { model: id },
      totals: { ...m.totals, billable_total_tokens: String(m.billable), total_cost_usd: String(m.cost) },
    }));
}

/**
 * Every answer of the range in one parallel round; the trend starts as one layer (all tokens) so the
 * first chart draws at once, and `loadStackedTrend` splits it by source or model next.
 */
export async function loadOverview(range: DateRange, zone: string, signal: AbortSignal): Promise<OverviewData> {
  const tz = { tz: zone };
  const prev = previousPeriod(range);
  const [summary, previous, daily, previousDaily, breakdown, hourly] = await Promise.all([
    call<Summary>('svc-usage-summary', { params: { from: range.from, to: range.to, ...tz }, signal }),
    call<Summary>('svc-usage-summary', { params: { from: prev.from, to: prev.to, ...tz }, signal }),
    call<Daily>('svc-usage-daily', { params: { from: range.from, to: range.to, ...tz }, signal }),
    call<Daily>('svc-usage-daily', { params: { from: prev.from, to: prev.to, ...tz }, signal }),
    call<Breakdown>('svc-usage-model-breakdown', { params: { from: range.from, to: range.to, ...tz }, signal }),
    range.days === 1
      ? call<Hourly>('svc-usage-hourly', { params: { day: range.from, ...tz }, signal })
      : Promise.resolve(undefined),
  ]);
  const rows: TokenRow[] = hourly ? hourly.data : daily.data;
  const all = { key: 'all', values: rows.map(billable) };
  const trend: Trend = hourly
    ? { kind: 'hourly', xs: hourly.data.map((r) => r.hour), layers: [all], costRates: [rate(summary.totals)], hourly }
    : { kind: 'daily', xs: daily.data.map((r) => r.day), layers: [all], costRates: [rate(summary.totals)], daily };
  return { summary, previous, daily, previousDaily, breakdown, trend };
}

/** The trend split into layers by source or model (top five and "other"). */
export async function loadStackedTrend(
  base: OverviewData,
  range: DateRange,
  zone: string,
  by: StackBy,
  signal: AbortSignal,
): Promise<Trend> {
  const keys = stackKeys(base.breakdown, by);
  const total = base.trend.layers[0]?.values ?? [];
  const tz = { tz: zone };
  const parts =
    base.trend.kind === 'hourly'
      ? (
          await Promise.all(
            keys.map((k) =>
              call<Hourly>('svc-usage-hourly', { params: { day: range.from, ...tz, ...k.param }, signal }),
            ),
          )
        ).map((h) => h.data.map(billable))
      : (
          await Promise.all(
            keys.map((k) =>
              call<Daily>('svc-usage-daily', { params: { from: range.from, to: range.to, ...tz, ...k.param }, signal }),
            ),
          )
        ).map((d) => d.data.map(billable));
  const layers = layersWithRest(
    total,
    keys.map((k, i) => ({ key: k.key, values: parts[i] ?? [] })),
  );
  return { ...base.trend, layers, costRates: rateOf(layers, keys, base.summary.totals) };
}

/** Each layer's average cost per billable token; "other" gets what is left of the total. */
function rateOf(layers: Layer[], keys: Array<{ key: string; totals: Totals }>, total: Totals): number[] {
  const namedCost = keys.reduce((s, k) => s + Number(k.totals.total_cost_usd), 0);
  const namedTokens = keys.reduce((s, k) => s + billable(k.totals), 0);
  const restTokens = billable(total) - namedTokens;
  const restRate = restTokens > 0 ? Math.max(0, Number(total.total_cost_usd) - namedCost) / restTokens : 0;
  return layers.map((l) => {
    const k = keys.find((x) => x.key === l.key);
    return k ? rate(k.totals) : restRate;
  });
}

export function loadHeatmap(zone: string, weekStart: WeekStart, today: IsoDate, signal: AbortSignal): Promise<Heatmap> {
  return call<Heatmap>('svc-usage-heatmap', {
    params: { weeks: 52, to: today, week_starts_on: weekStart, tz: zone },
    signal,
  });
}

export function loadMonthly(zone: string, today: IsoDate, signal: AbortSignal): Promise<Monthly> {
  return call<Monthly>('svc-usage-monthly', { params: { months: 24, to: today, tz: zone }, signal });
}

export function loadProjects(signal: AbortSignal): Promise<Projects> {
  return call<Projects>('svc-project-usage-summary', { params: { limit: 10 }, signal });
}

export function activeDays(daily: Daily): number {
  return daily.data.filter((r) => r.total_tokens !== '0').length;
}

export { addDays };
