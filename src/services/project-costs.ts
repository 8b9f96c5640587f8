/**
 * @fileoverview The cost of a user's projects, all time (getProjectUsageSummary with `cost=1`,
 * docs/analytics.md): each project's usage per (UTC day, source, model) from the raw buckets
 * (db/queries/project-usage-rows.ts), priced at that day's price with the price data the stored
 * costs are priced by, truncated to micro-dollars per (model, day) inside the project.
 */
import type { Db } from '../db/connect.js';
import { readCostsFingerprint } from '../db/queries/daily-costs.js';
import { listProjectDayRows } from '../db/queries/project-usage-rows.js';
import { createCostAccumulator } from '../pricing/index.js';
import type { PriceService, PriceSource } from '../pricing/index.js';

/** Micro-dollars per project key of `projectKeys` (0 for a project without priced usage). */
export async function projectCosts(
  db: Db,
  prices: PriceSource<PriceService>,
  userId: string,
  projectKeys: readonly string[],
  source?: string,
): Promise<Map<string, bigint>> {
  const [rows, pricedBy] = await Promise.all([
    listProjectDayRows(db.kysely, userId, new Set(projectKeys), source),
    readCostsFingerprint(db),
  ]);
  const service = pricedBy === null ? prices.serving() : await prices.of(pricedBy);
  return new Map(
    projectKeys.map((key) => {
      const acc = createCostAccumulator(service);
      acc.addAll(rows.get(key) ?? []);
      return [key, acc.totalMicros()];
    }),
  );
}
