/**
 * @fileoverview Groups rollup rows for the model breakdown: sources by name; inside each source,
 * models grouped by canonical `model_id` (aliases merge) and ordered by billable tokens
 * descending, then by id. Each group keeps its rows so the caller can price it.
 */

import { addCounts, zeroCounts, type TokenCounts } from './token-counts.js';
import type { UsageRow } from './usage-row.js';

/** A model's canonical id and display name (what the price service's `identify` returns). */
export interface ModelName {
  readonly model_id: string;
  readonly model: string;
  /** Id of the model whose price prices this one when it is not its own (docs/pricing.md), else null. */
  readonly priced_as: string | null;
}

/** One canonical model inside a source. */
export interface ModelGroup {
  readonly model_id: string;
  readonly model: string;
  readonly priced_as: string | null;
  readonly totals: TokenCounts;
  readonly rows: UsageRow[];
}

/** One source with its models. */
export interface SourceGroup {
  readonly source: string;
  readonly totals: TokenCounts;
  readonly models: ModelGroup[];
  readonly rows: UsageRow[];
}

/** Groups rows by source (sorted by name) and canonical model (billable descending, then `model_id`). */
export function groupBySourceAndModel(
  rows: Iterable<UsageRow>,
  identify: (rawModel: string) => ModelName,
): SourceGroup[] {
  const names = new Map<string, ModelName>();
  const sources = new Map<string, { totals: TokenCounts; rows: UsageRow[]; models: Map<string, ModelGroup> }>();
  for (const row of rows) {
    let name = names.get(row.model);
    if (name === undefined) {
      name = identify(row.model);
      names.set(row.model, name);
    }
    let source = sources.get(row.source);
    if (source === undefined) {
      source = { totals: zeroCounts(), rows: [], models: new Map() };
      sources.set(row.source, source);
    }
    addCounts(source.totals, row);
    source.rows.push(row);
    let model = source.models.get(name.model_id);
    if (model === undefined) {
      model = { model_id: name.model_id, model: name.model, priced_as: name.priced_as, totals: zeroCounts(), rows: [] };
      source.models.set(name.model_id, model);
    }
    addCounts(model.totals, row);
    model.rows.push(row);
  }
  return [...sources.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([source, g]) => ({
      source,
      totals: g.totals,
      rows: g.rows,
      models: [...g.models.values()].sort((a, b) =>
        a.totals.billable !== b.totals.billable
          ? a.totals.billable > b.totals.billable
            ? -1
            : 1
          : a.model_id < b.model_id
            ? -1
            : a.model_id > b.model_id
              ? 1
              : 0,
      ),
    }));
}
