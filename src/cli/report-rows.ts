/**
 * @fileoverview The rows of `tokentally report`: local buckets grouped by local day, model (dated
 * ids folded into their undated sibling), source, project or Claude 5-hour block, with columns
 * that add up. Codex and Every Code count cached tokens inside input and reasoning inside output;
 * the `uncached_input_tokens` and `non_reasoning_output_tokens` columns take them out, so for
 * every row uncached input + cached + output + reasoning (+ other) = total. `other_tokens` is what
 * a tool's own total holds beyond its four channels (Gemini, Qwen report such totals).
 */
import { parseBucketKey } from './buckets.js';
import { microsToUsd, type PricedBucket, type Pricer } from './cost.js';
import { localTime } from './style.js';
import { localDater } from './time-zone.js';
import type { Counts } from './usage.js';
import { billableTokens } from '../domain/billable.js';
import { modelBase } from '../domain/model-names.js';

export type ReportBy = 'day' | 'model' | 'source' | 'project' | 'block' | 'session';

export interface ReportRow {
  key: string;
  /** Raw sums as uploaded (for Codex, cached is inside input and reasoning inside output). */
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
  /** Columns that add up: uncached + cached + non-reasoning output + reasoning + other = total. */
  uncached_input_tokens: number;
  non_reasoning_output_tokens: number;
  other_tokens: number;
  billable_total_tokens: number;
  /** Dollars with six decimals, as the server's `total_cost_usd`. */
  cost_usd: string;
  /** `--by block`: the window [start, end) and whether it is still open; `--by session`: its first and last half-hour. */
  start?: string;
  end?: string;
  active?: boolean;
  /** `--by session` only: the agent, the session id as its log names it, and the git project if known. */
  source?: string;
  session?: string;
  project?: string;
}

/** Claude's usage windows: 5 hours from the hour of the first message after the last window ended. */
export const BLOCK_MS = 5 * 3_600_000;

const OVERLAP = new Set(['codex', 'every-code']);

/** The server's billable rule (src/domain/billable.ts), on the CLI's plain-number counts. */
export function billable(source: string, c: Counts): number {
  return Number(
    billableTokens(source, {
      input: BigInt(c.input),
      cached: BigInt(c.cached),
      output: BigInt(c.output),
      reasoning: BigInt(c.reasoning),
      total: BigInt(c.total),
    }),
  );
}

/**
 * Block starts for half-hour bucket starts (any order): a block starts at the full hour of the
 * first activity after the previous block ended and lasts {@link BLOCK_MS}, as ccusage's
 * `blocks`. Exact on half-hour buckets: blocks start and end on full hours, so no bucket straddles one.
 */
export function blockStarts(hourStarts: Iterable<number>): number[] {
  const sorted = [...new Set(hourStarts)].sort((a, b) => a - b);
  const starts: number[] = [];
  for (const t of sorted) {
    const last = starts[starts.length - 1];
    if (last === undefined || t >= last + BLOCK_MS) starts.push(t - (t % 3_600_000));
  }
  return starts;
}

export function emptyRow(key: string): ReportRow {
  return {
    key,
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    reasoning_output_tokens: 0,
    total_tokens: 0,
    uncached_input_tokens: 0,
    non_reasoning_output_tokens: 0,
    other_tokens: 0,
    billable_total_tokens: 0,
    cost_usd: '0.000000',
  };
}

export function addTo(r: ReportRow, source: string, c: Counts): void {
  const overlap = OVERLAP.has(source);
  const uncached = overlap ? Math.max(0, c.input - c.cached) : c.input;
  const plainOut = overlap ? Math.max(0, c.output - c.reasoning) : c.output;
  r.input_tokens += c.input;
  r.cached_input_tokens += c.cached;
  r.output_tokens += c.output;
  r.reasoning_output_tokens += c.reasoning;
  r.total_tokens += c.total;
  r.uncached_input_tokens += uncached;
  r.non_reasoning_output_tokens += plainOut;
  r.other_tokens += c.total - (uncached + c.cached + plainOut + c.reasoning);
  r.billable_total_tokens += billable(source, c);
}

export interface ReportOptions {
  tz: string;
  since?: string | undefined;
  until?: string | undefined;
  by: ReportBy;
  /** Now (epoch ms): marks the open block. */
  now: number;
}

export function buildReport(
  buckets: Iterable<[string, Counts]>,
  opts: ReportOptions,
  costMicros: Pricer,
): { rows: ReportRow[]; totals: ReportRow } {
  const dayOf = localDater(opts.tz);
  const entries = [...buckets].map(([k, c]) => ({ id: parseBucketKey(k), c }));
  const blocks =
    opts.by === 'block'
      ? blockStarts(entries.filter((e) => e.id.source === 'claude' && e.c.total > 0).map((e) => e.id.hourStart))
      : [];
  const blockOf = (t: number): number => {
    let lo = 0;
    let hi = blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((blocks[mid] as number) <= t) lo = mid;
      else hi = mid - 1;
    }
    return blocks[lo] as number;
  };
  const rows = new Map<string, ReportRow>();
  const order = new Map<string, number>();
  const totals = emptyRow('total');
  const priced = new Map<string, PricedBucket[]>();
  const all: PricedBucket[] = [];
  for (const { id, c } of entries) {
    let key: string;
    let day = dayOf(id.hourStart);
    if (opts.by === 'block') {
      if (id.source !== 'claude' || c.total === 0) continue;
      const start = blockOf(id.hourStart);
      day = dayOf(start);
      key = localTime(start, opts.tz);
      if (!order.has(key)) order.set(key, start);
    } else
      key =
        opts.by === 'day'
          ? day
          : opts.by === 'model'
            ? modelBase(id.model).base
            : opts.by === 'source'
              ? id.source
              : id.project || '(no project)';
    if (opts.since !== undefined && day < opts.since) continue;
    if (opts.until !== undefined && day > opts.until) continue;
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = emptyRow(key)));
    const bucket: PricedBucket = { hourStart: id.hourStart, source: id.source, model: id.model, counts: c };
    all.push(bucket);
    let list = priced.get(key);
    if (list === undefined) priced.set(key, (list = []));
    list.push(bucket);
    addTo(row, id.source, c);
    addTo(totals, id.source, c);
  }
  for (const row of rows.values()) {
    row.cost_usd = microsToUsd(costMicros(priced.get(row.key) ?? []));
    const start = order.get(row.key);
    if (start !== undefined) {
      row.start = new Date(start).toISOString();
      row.end = new Date(start + BLOCK_MS).toISOString();
      row.active = opts.now < start + BLOCK_MS;
    }
  }
  totals.cost_usd = microsToUsd(costMicros(all));
  const sorted = [...rows.values()].sort((a, b) =>
    opts.by === 'day' || opts.by === 'block'
      ? (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0) || (a.key < b.key ? -1 : 1)
      : b.billable_total_tokens - a.billable_total_tokens || (a.key < b.key ? -1 : 1),
  );
  return { rows: sorted, totals };
}
