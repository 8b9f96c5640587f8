/**
 * @fileoverview Usage of one or several users over an instant window: cost in micro-dollars and
 * billable tokens (budgets' spend), or totals by source and model (usage.daily). Whole UTC days come
 * with their stored costs, the partial days at the edges are priced here (db/queries/analytics.ts).
 */
import type { Db } from '../db/connect.js';
import { listDayModelUsage } from '../db/queries/analytics.js';
import { addCounts, sumCounts, toTokenCountsWire, zeroCounts, type TokenCounts } from '../domain/token-counts.js';
import { createCostAccumulator, formatMicros, type CostAccumulator } from '../pricing/index.js';
import type { PriceService, PriceSource } from '../pricing/index.js';

export interface Spend {
  readonly micros: bigint;
  readonly billable: bigint;
}

/** Cost and billable tokens of `userIds` together in `[startMs, endMs)`. */
export async function spendOf(
  db: Db,
  prices: PriceSource<PriceService>,
  userIds: readonly string[],
  startMs: number,
  endMs: number,
): Promise<Spend> {
  let micros = 0n;
  let billable = 0n;
  for (const userId of userIds) {
    const usage = await listDayModelUsage(db, userId, startMs, endMs);
    const service = usage.pricedBy === null ? prices.serving() : await prices.of(usage.pricedBy);
    const acc = createCostAccumulator(service);
    acc.addAll(usage.edgeRows);
    for (const p of usage.priced) acc.addPriced(p);
    micros += acc.totalMicros();
    billable += sumCounts(usage.totals).billable;
  }
  return { micros, billable };
}

export interface UsageLine {
  source: string;
  model: string;
  billable_total_tokens: string;
  total_tokens: string;
  input_tokens: string;
  cached_input_tokens: string;
  output_tokens: string;
  reasoning_output_tokens: string;
  cost_usd: string;
}

/** Totals of `userIds` in `[startMs, endMs)`: overall and one line per (source, model), by cost then name. */
export async function usageBySourceModel(
  db: Db,
  prices: PriceSource<PriceService>,
  userIds: readonly string[],
  startMs: number,
  endMs: number,
): Promise<{ totals: Omit<UsageLine, 'source' | 'model'>; by_source_model: UsageLine[] }> {
  const groups = new Map<string, { source: string; model: string; counts: TokenCounts; micros: bigint }>();
  for (const userId of userIds) {
    const usage = await listDayModelUsage(db, userId, startMs, endMs);
    const service = usage.pricedBy === null ? prices.serving() : await prices.of(usage.pricedBy);
    const group = (source: string, model: string) => {
      const key = `${source}\u0000${model}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { source, model, counts: zeroCounts(), micros: 0n }));
      return g;
    };
    for (const row of usage.totals) addCounts(group(row.source, row.model).counts, row);
    const accs = new Map<string, CostAccumulator>();
    const accFor = (source: string, model: string) => {
      const key = `${source}\u0000${model}`;
      let acc = accs.get(key);
      if (!acc) accs.set(key, (acc = createCostAccumulator(service)));
      return acc;
    };
    for (const row of usage.edgeRows) accFor(row.source, row.model).add(row);
    for (const p of usage.priced) accFor(p.source, p.model).addPriced(p);
    for (const [key, acc] of accs) {
      const [source = '', model = ''] = key.split('\u0000');
      group(source, model).micros += acc.totalMicros();
    }
  }
  const lines = [...groups.values()]
    .sort((a, b) => (b.micros > a.micros ? 1 : b.micros < a.micros ? -1 : a.model < b.model ? -1 : 1))
    .map((g) => ({
      source: g.source,
      model: g.model,
      ...toTokenCountsWire(g.counts),
      cost_usd: formatMicros(g.micros),
    }));
  const all = zeroCounts();
  let micros = 0n;
  for (const g of groups.values()) {
    addCounts(all, g.counts);
    micros += g.micros;
  }
  return { totals: { ...toTokenCountsWire(all), cost_usd: formatMicros(micros) }, by_source_model: lines };
}
