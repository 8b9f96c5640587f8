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

/** Whether each slot starts after the last sync (so it may still fill in). */
export function unsyncedSlots(
  rows: ReadonlyArray<{ hour_start: string }>,
  lastSyncAt: string | null,
  nowMs: number,
): boolean[] {
  const sync = lastSyncAt ? Date.parse(lastSyncAt) : -Infinity;
  return rows.map((r) => {
    const start = Date.parse(r.hour_start);
    return start + 1_800_000 > sync && start <= nowMs;
  });
}

/** A stacked series: one layer per key, in the given order, each value at every x. */
export interface Layer {
  key: string;
  values: number[];
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
