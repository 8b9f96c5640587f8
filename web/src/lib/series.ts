/** @fileoverview Shapes the analytics answers into chart series and table rows (pure; unit-tested). */

export interface TokenRow {
  total_tokens: string;
  billable_total_tokens: string;
  input_tokens: string;
  cached_input_tokens: string;
  output_tokens: string;
  reasoning_output_tokens: string;
}

export interface Totals extends TokenRow {
  total_cost_usd: string;
}

export interface HourlyRow extends TokenRow {
  hour: string;
  hour_start: string;
}

/** "01:30" from a local half-hour start with its offset ("2026-03-08T01:30:00-05:00"). */
export function slotLabel(hour: string): string {
  return hour.slice(11, 16);
}

/** "01:30 (UTC−5)": labels that tell the two 01:30s of a DST day apart. */
export function slotLabelWithOffset(hour: string): string {
  const offset = hour.slice(19);
  if (offset === 'Z' || offset === '+00:00') return `${slotLabel(hour)} (UTC)`;
  const sign = offset.startsWith('-') ? '−' : '+';
  const [h, m] = offset.slice(1).split(':');
  return `${slotLabel(hour)} (UTC${sign}${Number(h)}${m && m !== '00' ? `:${m}` : ''})`;
}

/**
 * Whether each slot is "not yet synced": it starts at or after the last sync (so nothing in it has
 * been uploaded yet), has begun, and holds no tokens. A half-hour the last sync reached is synced.
 */
export function unsyncedSlots(
  rows: ReadonlyArray<{ hour_start: string; total_tokens?: string }>,
  lastSyncAt: string | null,
  nowMs: number,
): boolean[] {
  const sync = lastSyncAt ? Date.parse(lastSyncAt) : -Infinity;
  return rows.map((r) => {
    const start = Date.parse(r.hour_start);
    return start >= sync && start <= nowMs && (r.total_tokens === undefined || r.total_tokens === '0');
  });
}

/** A stacked series: one layer per key, in the given order, each value at every x. */
export interface Layer {
  key: string;
  values: number[];
  /** What the legend and the table say (the key when absent). */
  label?: string;
  /** The key's one colour (model-names.ts). */
  colour?: string;
}

export type Grain = 'day' | 'week' | 'month';

/** The grain a range of days is drawn at: days up to about three months, weeks up to about a year, then months. */
export function grainOf(days: number): Grain {
  return days <= 92 ? 'day' : days <= 371 ? 'week' : 'month';
}

/** The first day of the week or month that `day` is in (`weekStart` 0 = Sunday, 1 = Monday). */
export function slotOf(day: string, grain: Grain, weekStart: 0 | 1): string {
  if (grain === 'day') return day;
  if (grain === 'month') return `${day.slice(0, 7)}-01`;
  const t = Date.parse(`${day}T00:00:00Z`);
  const back = (new Date(t).getUTCDay() - weekStart + 7) % 7;
  return new Date(t - back * 86_400_000).toISOString().slice(0, 10);
}

/** Daily x positions and layers summed into weeks or months (the slots keep the order of the days). */
export function groupSlots(
  days: readonly string[],
  layers: readonly Layer[],
  grain: Grain,
  weekStart: 0 | 1,
): { xs: string[]; layers: Layer[] } {
  if (grain === 'day') return { xs: [...days], layers: [...layers] };
  const xs: string[] = [];
  const index: number[] = [];
  for (const d of days) {
    const slot = slotOf(d, grain, weekStart);
    if (xs.at(-1) !== slot) xs.push(slot);
    index.push(xs.length - 1);
  }
  return {
    xs,
    layers: layers.map((l) => {
      const values = new Array<number>(xs.length).fill(0);
      l.values.forEach((v, i) => {
        const j = index[i] ?? 0;
        values[j] = (values[j] ?? 0) + v;
      });
      return { ...l, values };
    }),
  };
}

/**
 * Layers from per-key answers over the same x positions, plus "other" = total − the sum of the
 * named layers (never negative) when the named keys do not cover everything.
 */
export function layersWithRest(total: readonly number[], named: readonly Layer[], restKey = 'other'): Layer[] {
  const rest = total.map((t, i) => Math.max(0, t - named.reduce((s, l) => s + (l.values[i] ?? 0), 0)));
  return rest.some((v) => v > 0) ? [...named, { key: restKey, values: rest }] : [...named];
}

/** Cumulative sums of layers, bottom first: what a stacked area chart draws. */
export function stack(layers: readonly Layer[]): number[][] {
  const out: number[][] = [];
  let running: number[] | undefined;
  for (const layer of layers) {
    running = layer.values.map((v, i) => v + (running?.[i] ?? 0));
    out.push(running);
  }
  return out;
}

export type SortKey = 'day' | keyof TokenRow;

/** Rows sorted by a column (numbers compared exactly as BigInt), ties by day. */
export function sortRows<R extends TokenRow & { day: string }>(
  rows: readonly R[],
  key: SortKey,
  descending: boolean,
): R[] {
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    if (key === 'day') return sign * a.day.localeCompare(b.day);
    const x = BigInt(a[key]);
    const y = BigInt(b[key]);
    return x === y ? a.day.localeCompare(b.day) : x < y ? -sign : sign;
  });
}

/** Sources that count cached input inside input (docs/wire-format.md); the others report it apart. */
const CACHED_INSIDE_INPUT = new Set(['codex', 'every-code']);

/** Share of input read from the cache ("cache-hit share"), each source counted by its own convention. */
export function cacheShare(
  sources: ReadonlyArray<{ source: string; totals: Pick<TokenRow, 'input_tokens' | 'cached_input_tokens'> }>,
): number {
  let cached = 0;
  let input = 0;
  for (const s of sources) {
    const c = Number(s.totals.cached_input_tokens);
    const i = Number(s.totals.input_tokens);
    cached += c;
    input += CACHED_INSIDE_INPUT.has(s.source) ? Math.max(i, c) : i + c;
  }
  return input === 0 ? 0 : cached / input;
}

/**
 * Each slot's cost estimated from its layers' average prices over the range, scaled so the slots
 * add up to the exact total (the server prices per model and UTC day; local days cut across those).
 */
export function estimateSlotCosts(layers: readonly Layer[], rates: readonly number[], totalCost: number): number[] {
  const n = layers[0]?.values.length ?? 0;
  const raw = Array.from({ length: n }, (_, i) =>
    layers.reduce((s, l, k) => s + (l.values[i] ?? 0) * (rates[k] ?? 0), 0),
  );
  const sum = raw.reduce((a, b) => a + b, 0);
  return sum > 0 ? raw.map((v) => (v / sum) * totalCost) : raw;
}

/** Rows with runs of empty days folded into one "gap" entry each (rows in day order). */
export function foldEmptyRuns<R extends { day: string; total_tokens: string }>(
  rows: readonly R[],
): Array<{ row: R } | { gap: { from: string; to: string; days: number } }> {
  const out: Array<{ row: R } | { gap: { from: string; to: string; days: number } }> = [];
  for (const r of rows) {
    const last = out.at(-1);
    if (r.total_tokens !== '0') out.push({ row: r });
    else if (last && 'gap' in last) last.gap = { ...last.gap, to: r.day, days: last.gap.days + 1 };
    else out.push({ gap: { from: r.day, to: r.day, days: 1 } });
  }
  return out;
}
