/**
 * @fileoverview The model breakdown's body: a window's usage grouped by source and model (canonical
 * ids), each group costed exactly from its own stored whole days and priced edge rows, with the
 * price data its stored costs were priced by (analytics.ts).
 */
import type { DayModelUsage } from '../db/queries/analytics.js';
import { groupBySourceAndModel } from '../domain/breakdown.js';
import type { ResolvedDateRange } from '../domain/ranges.js';
import type { UsageRow } from '../domain/usage-row.js';
import { createCostAccumulator, totalsWithCost, type PriceService, type PricedUsage } from '../pricing/index.js';
import type { BreakdownBody } from '../schemas/usage.js';

/** The model breakdown of a window's usage, priced with `prices` (the data of its stored costs). */
export function breakdownBody(
  range: ResolvedDateRange,
  source: string | undefined,
  usage: DayModelUsage,
  prices: PriceService,
): BreakdownBody {
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
