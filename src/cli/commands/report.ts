/**
 * @fileoverview `tokentally report [--since D] [--until D] [--tz ZONE] [--by day|model|source|project]
 * [--json] [--refresh]`: totals from the local bucket store, without any server. Days are local
 * days in `--tz` (default: the system zone); a bucket belongs to the local day of its
 * hour_start. `billable` follows the server's per-source rule and `cost` is priced by the
 * server's own pricing code (cost.ts), so the figures can be compared with the dashboard.
 */
import { parseArgs } from 'node:util';
import { parseBucketKey } from '../buckets.js';
import { loadConfig } from '../config-store.js';
import { UsageError, type CliContext } from '../context.js';
import { createOutput, formatInt, table } from '../output.js';
import { ownPaths } from '../paths.js';
import { LocalState } from '../state.js';
import { defaultZone, isIsoDate, isValidZone, localDater } from '../time-zone.js';
import type { Counts } from '../usage.js';
import { billableTokens } from '../../domain/billable.js';
import { formatUsd, loadPricer, microsToUsd, type PricedBucket, type Pricer } from '../cost.js';
import { scanAndQueue } from './sync.js';
import { acquireLock } from '../lock.js';
import path from 'node:path';

export type ReportBy = 'day' | 'model' | 'source' | 'project';

export interface ReportRow {
  key: string;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
  billable_total_tokens: number;
  /** Dollars with six decimals, as the server's `total_cost_usd`. */
  cost_usd: string;
}

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

/** Printed once under the table: what `billable` means. */
export const BILLABLE_NOTE =
  'billable = the tokens the server bills: input + output for codex/every-code (whose cached ⊂ input and reasoning ⊂ output); input + cached + output + reasoning for claude/opencode; the total for every other source.';

export function buildReport(
  buckets: Iterable<[string, Counts]>,
  opts: { tz: string; since?: string | undefined; until?: string | undefined; by: ReportBy },
  costMicros: Pricer,
): { rows: ReportRow[]; totals: ReportRow } {
  const dayOf = localDater(opts.tz);
  const rows = new Map<string, ReportRow>();
  const empty = (key: string): ReportRow => ({
    key,
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    reasoning_output_tokens: 0,
    total_tokens: 0,
    billable_total_tokens: 0,
    cost_usd: '0.000000',
  });
  const totals = empty('total');
  const priced = new Map<string, PricedBucket[]>();
  const all: PricedBucket[] = [];
  for (const [k, c] of buckets) {
    const id = parseBucketKey(k);
    const day = dayOf(id.hourStart);
    if (opts.since !== undefined && day < opts.since) continue;
    if (opts.until !== undefined && day > opts.until) continue;
    const key =
      opts.by === 'day'
        ? day
        : opts.by === 'model'
          ? id.model
          : opts.by === 'source'
            ? id.source
            : id.project || '(no project)';
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = empty(key)));
    const bucket: PricedBucket = { hourStart: id.hourStart, source: id.source, model: id.model, counts: c };
    all.push(bucket);
    let list = priced.get(key);
    if (list === undefined) priced.set(key, (list = []));
    list.push(bucket);
    for (const r of [row, totals]) {
      r.input_tokens += c.input;
      r.cached_input_tokens += c.cached;
      r.output_tokens += c.output;
      r.reasoning_output_tokens += c.reasoning;
      r.total_tokens += c.total;
      r.billable_total_tokens += billable(id.source, c);
    }
  }
  for (const row of rows.values()) row.cost_usd = microsToUsd(costMicros(priced.get(row.key) ?? []));
  totals.cost_usd = microsToUsd(costMicros(all));
  const sorted = [...rows.values()].sort((a, b) =>
    opts.by === 'day'
      ? a.key < b.key
        ? -1
        : 1
      : b.billable_total_tokens - a.billable_total_tokens || (a.key < b.key ? -1 : 1),
  );
  return { rows: sorted, totals };
}

export async function reportCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      since: { type: 'string' },
      until: { type: 'string' },
      tz: { type: 'string' },
      by: { type: 'string', default: 'day' },
      json: { type: 'boolean', default: false },
      refresh: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  const by = values.by;
  if (by !== 'day' && by !== 'model' && by !== 'source' && by !== 'project')
    throw new UsageError('--by must be day, model, source or project');
  const tz = values.tz ?? defaultZone(ctx.env);
  if (!isValidZone(tz)) throw new UsageError(`unknown time zone "${tz}" (use an IANA name such as Europe/Berlin)`);
  for (const [name, v] of [
    ['since', values.since],
    ['until', values.until],
  ] as const) {
    if (v !== undefined && !isIsoDate(v)) throw new UsageError(`--${name} must be a date like 2026-11-01`);
  }
  if (values.since !== undefined && values.until !== undefined && values.since > values.until)
    throw new UsageError('--since is after --until');
  const out = createOutput(ctx.stdout, ctx.stderr, values.json === true);
  const paths = ownPaths(ctx.env);
  if (values.refresh === true) {
    const lock = acquireLock(path.join(paths.stateDir, 'sync.lock'));
    if (lock === undefined) out.warn('a sync is running; reporting what was read so far');
    else {
      try {
        scanAndQueue(ctx, out, loadConfig(paths.configFile).projects === true);
      } finally {
        lock.release();
      }
    }
  }
  const state = new LocalState(paths.stateDir);
  const { rows, totals } = buildReport(
    state.buckets.entries(),
    { tz, since: values.since, until: values.until, by },
    await loadPricer(),
  );
  if (values.json === true) {
    out.data(
      JSON.stringify({ tz, since: values.since ?? null, until: values.until ?? null, by, rows, totals }, null, 2),
    );
    return 0;
  }
  if (rows.length === 0) {
    out.data('No usage recorded for this range. Run `tokentally sync` first.');
    return 0;
  }
  const fmtRow = (r: ReportRow): string[] => [
    r.key,
    formatInt(r.input_tokens),
    formatInt(r.cached_input_tokens),
    formatInt(r.output_tokens),
    formatInt(r.reasoning_output_tokens),
    formatInt(r.total_tokens),
    formatInt(r.billable_total_tokens),
    formatUsd(BigInt(r.cost_usd.replace('.', ''))),
  ];
  out.data(
    table(
      [by, 'input', 'cached', 'output', 'reasoning', 'total', 'billable', 'cost'],
      [...rows.map(fmtRow), fmtRow(totals)],
    ),
  );
  out.data(`(time zone ${tz}; ${BILLABLE_NOTE} Cost: the server's price data and rules, per model and UTC day.)`);
  return 0;
}
