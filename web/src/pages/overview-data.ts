/** @fileoverview What the overview reads: every answer for one range, zone and grouping, in parallel. */
import { call, type Answer, type OpName, type Params } from '../api.js';
import { addDays, todayIn, type IsoDate } from '../lib/dates.js';
import { isPreset, previousPeriod, resolveRange, type DateRange, type Preset, type WeekStart } from '../lib/ranges.js';
import { browserZone, type Prefs } from '../prefs.js';
import { layersWithRest, type Layer, type TokenRow, type Totals } from '../lib/series.js';
import { groupModels, keyColour, modelName, sourceName } from '../../../src/domain/model-names.js';

// The answers' types are the server's (api/wire.ts, generated from /openapi.json).
export type Breakdown = Answer<'svc-usage-model-breakdown'>;
export type SourceRow = Breakdown['sources'][number];
export type ModelRow = SourceRow['models'][number];
export interface Summary {
  totals: Totals;
}
export type Daily = Answer<'svc-usage-daily'>;
export type DailyRow = Daily['data'][number];
export type Hourly = Answer<'svc-usage-hourly'>;
export type Heatmap = Answer<'svc-usage-heatmap'>;
export type Monthly = Answer<'svc-usage-monthly'>;
export type Projects = Answer<'svc-project-usage-summary'>;

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

interface StackKey {
  key: string;
  label: string;
  colour: string;
  /** One filter per model id grouped under the key (a source is one). */
  params: Array<Record<string, string>>;
  totals: Totals;
}

/**
 * The top keys to stack by (at most 5; the rest is "other"); dated model ids count with their
 * undated sibling. `complete`: the keys are all there is (no "other").
 */
function stackKeys(breakdown: Breakdown, by: StackBy): { keys: StackKey[]; complete: boolean } {
  if (by === 'source') {
    const keys = [...breakdown.sources]
      .sort((a, b) => billable(b.totals) - billable(a.totals))
      .slice(0, 5)
      .map((s) => ({
        key: s.source,
        label: sourceName(s.source),
        colour: keyColour(s.source, 'source'),
        params: [{ source: s.source }],
        totals: s.totals,
      }));
    return { keys, complete: breakdown.sources.length <= 5 };
  }
  const groups = groupModels(breakdown.sources.flatMap((s) => s.models));
  const keys = groups.slice(0, 5).map((g) => ({
    key: g.base,
    label: modelName(g.base),
    colour: keyColour(g.base, 'model'),
    params: [...new Set(g.variants.map((v) => v.model_id))].map((model) => ({ model })),
    totals: g.totals,
  }));
  return { keys, complete: groups.length <= 5 };
}

/** Sums per-slot values of several answers (a grouped model's ids). */
const sumRows = (parts: number[][]): number[] =>
  (parts[0] ?? []).map((_, i) => parts.reduce((s, p) => s + (p[i] ?? 0), 0));

/** What the address, the preferences and the view's time choose (the range before "all time" knows its first day). */
export function overviewView(query: URLSearchParams, prefs: Prefs, nowMs: number) {
  const browser = browserZone();
  const zone = query.get('tz') ?? prefs.zone ?? browser;
  const today = todayIn(zone, nowMs);
  const rawPreset = query.get('range');
  const preset: Preset = isPreset(rawPreset) ? rawPreset : '7d';
  const resolved = resolveRange(preset, today, prefs.weekStart, { from: query.get('from'), to: query.get('to') });
  return { browser, zone, today, rawPreset, preset, device: query.get('device'), resolved };
}

export type Read = [OpName, Params];

/** The reads of the first round (loadOverview; prefetched by overview-prefetch.ts with the script). */
export function firstReads(
  range: DateRange,
  zone: string,
  device: string | null,
): { daily: Read; previousDaily: Read; breakdown: Read; hourly: Read | undefined } {
  const tz = { tz: zone, device_id: device };
  const prev = previousPeriod(range);
  return {
    daily: ['svc-usage-daily', { from: range.from, to: range.to, ...tz }],
    previousDaily: ['svc-usage-daily', { from: prev.from, to: prev.to, ...tz }],
    breakdown: ['svc-usage-model-breakdown', { from: range.from, to: range.to, ...tz }],
    hourly: range.days === 1 ? ['svc-usage-hourly', { day: range.from, ...tz }] : undefined,
  };
}

/**
 * Every answer of the range in one parallel round; the trend starts as one layer (all tokens) so the
 * first chart draws at once, and `loadStackedTrend` splits it by source or model next. The totals
 * come with the days (getUsageDaily's `summary` is getUsageSummary's totals of the same range), so
 * no summary is asked for: two requests fewer in the first round.
 */
export async function loadOverview(
  range: DateRange,
  zone: string,
  device: string | null,
  signal: AbortSignal,
): Promise<OverviewData> {
  const reads = firstReads(range, zone, device);
  const read = <T>([op, params]: Read) => call<T>(op, { params, signal });
  const [daily, previousDaily, breakdown, hourly] = await Promise.all([
    read<Daily>(reads.daily),
    read<Daily>(reads.previousDaily),
    read<Breakdown>(reads.breakdown),
    reads.hourly ? read<Hourly>(reads.hourly) : Promise.resolve(undefined),
  ]);
  const summary: Summary = { totals: daily.summary.totals };
  const previous: Summary = { totals: previousDaily.summary.totals };
  const rows: TokenRow[] = hourly ? hourly.data : daily.data;
  const all = { key: 'all', values: rows.map(billable) };
  const trend: Trend = hourly
    ? { kind: 'hourly', xs: hourly.data.map((r) => r.hour), layers: [all], costRates: [rate(summary.totals)], hourly }
    : { kind: 'daily', xs: daily.data.map((r) => r.day), layers: [all], costRates: [rate(summary.totals)], daily };
  return { summary, previous, daily, previousDaily, breakdown, trend };
}

/**
 * The reads that split the trend by source or model: per stacked key (top five), one per model id
 * grouped under it (a source is one); a one-day range reads half-hours. When the keys are all there
 * is, the largest (the dearest read) is not read: it is the total less the others (`derived`).
 */
export function layerReads(
  breakdown: Breakdown,
  range: DateRange,
  zone: string,
  by: StackBy,
  device: string | null,
): { keys: StackKey[]; reads: Read[][]; derived: number | undefined } {
  const { keys, complete } = stackKeys(breakdown, by);
  const tz = { tz: zone, device_id: device };
  const derived = complete && keys.length > 1 ? 0 : undefined;
  const reads = keys.map((k, i) =>
    i === derived
      ? []
      : k.params.map((param): Read =>
          range.days === 1
            ? ['svc-usage-hourly', { day: range.from, ...tz, ...param }]
            : ['svc-usage-daily', { from: range.from, to: range.to, ...tz, ...param }],
        ),
  );
  return { keys, reads, derived };
}

/** The trend split into layers by source or model (top five and "other"). */
export async function loadStackedTrend(
  base: OverviewData,
  range: DateRange,
  zone: string,
  by: StackBy,
  device: string | null,
  signal: AbortSignal,
): Promise<Trend> {
  const { keys, reads, derived } = layerReads(base.breakdown, range, zone, by, device);
  const total = base.trend.layers[0]?.values ?? [];
  const one = async ([op, params]: Read): Promise<number[]> =>
    (await call<Daily | Hourly>(op, { params, signal })).data.map(billable);
  const parts = await Promise.all(reads.map(async (r) => sumRows(await Promise.all(r.map(one)))));
  if (derived !== undefined)
    parts[derived] = total.map((t, i) =>
      Math.max(
        0,
        parts.reduce((rest, p) => rest - (p[i] ?? 0), t),
      ),
    );
  const layers = layersWithRest(
    total,
    keys.map((k, i) => ({ key: k.key, label: k.label, colour: k.colour, values: parts[i] ?? [] })),
  );
  return { ...base.trend, layers, costRates: rateOf(layers, keys, base.summary.totals) };
}

/** Each layer's average cost per billable token; "other" gets what is left of the total. */
function rateOf(layers: Layer[], keys: StackKey[], total: Totals): number[] {
  const namedCost = keys.reduce((s, k) => s + Number(k.totals.total_cost_usd), 0);
  const namedTokens = keys.reduce((s, k) => s + billable(k.totals), 0);
  const restTokens = billable(total) - namedTokens;
  const restRate = restTokens > 0 ? Math.max(0, Number(total.total_cost_usd) - namedCost) / restTokens : 0;
  return layers.map((l) => {
    const k = keys.find((x) => x.key === l.key);
    return k ? rate(k.totals) : restRate;
  });
}

/** The reads of the cards that do not follow the range (prefetched by overview-prefetch.ts too). */
export const heatmapRead = (zone: string, weekStart: WeekStart, today: IsoDate, device: string | null): Read => [
  'svc-usage-heatmap',
  { weeks: 52, to: today, week_starts_on: weekStart, tz: zone, device_id: device },
];
export const monthlyRead = (zone: string, today: IsoDate, device: string | null): Read => [
  'svc-usage-monthly',
  { months: 24, to: today, tz: zone, device_id: device },
];
export const PROJECTS_READ: Read = ['svc-project-usage-summary', { limit: 10, cost: 1 }];
export const DEVICES_READ: Read = ['svc-devices', { include_revoked: 1 }];
export const STATUS_READ: Read = ['svc-user-status', {}];

export function loadHeatmap(
  zone: string,
  weekStart: WeekStart,
  today: IsoDate,
  device: string | null,
  signal: AbortSignal,
): Promise<Heatmap> {
  const [op, params] = heatmapRead(zone, weekStart, today, device);
  return call<Heatmap>(op, { params, signal });
}

export function loadMonthly(
  zone: string,
  today: IsoDate,
  device: string | null,
  signal: AbortSignal,
): Promise<Monthly> {
  const [op, params] = monthlyRead(zone, today, device);
  return call<Monthly>(op, { params, signal });
}

export function loadProjects(signal: AbortSignal): Promise<Projects> {
  return call<Projects>(PROJECTS_READ[0], { params: PROJECTS_READ[1], signal });
}

/** The first and the latest day with usage that the heatmap (52 weeks) and the months (24) know of. */
export function usageSpan(
  heat: Heatmap | undefined,
  monthly: Monthly | undefined,
): { first: string; last: string } | null {
  const days = (heat?.weeks ?? []).flat().flatMap((c) => (c !== null && c.value !== '0' ? [c.day] : []));
  const months = (monthly?.data ?? []).filter((m) => m.total_tokens !== '0').map((m) => m.month);
  const firstMonth = months[0];
  const first =
    firstMonth !== undefined && (days[0] === undefined || firstMonth < days[0].slice(0, 7))
      ? `${firstMonth}-01`
      : days[0];
  const last = days.at(-1) ?? (months.at(-1) !== undefined ? `${months.at(-1) as string}-01` : undefined);
  return first !== undefined && last !== undefined ? { first, last } : null;
}

export function activeDays(daily: Daily): number {
  return daily.data.filter((r) => r.total_tokens !== '0').length;
}

export { addDays };
