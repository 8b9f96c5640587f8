/**
 * @fileoverview `tokentally report [--since D] [--until D] [--tz ZONE] [--by day|model|source|project|block|session]
 * [--json] [--refresh]`: totals from the local bucket store, without any server. Days are local
 * days in `--tz` (default: the system zone); a bucket belongs to the local day of its
 * hour_start. Columns add up (report-rows.ts); `billable` (the server's per-source rule) is shown
 * only where it differs from the total; `cost` is priced by the server's own pricing code
 * (cost.ts), so the figures can be compared with the dashboard. Token figures use the
 * dashboard's units (K, M, B).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config-store.js';
import { UsageError, type CliContext } from '../context.js';
import { formatTokens, formatUsd, loadPricer } from '../cost.js';
import { acquireLock } from '../lock.js';
import { createOutput, table } from '../output.js';
import { ownPaths } from '../paths.js';
import { buildReport, type ReportBy, type ReportRow } from '../report-rows.js';
import { buildSessionReport, NO_SESSION, sessionCells, SESSION_HEADER, shortensIds } from '../report-sessions.js';
import { LocalState } from '../state.js';
import { createStyle } from '../style.js';
import { defaultZone, isIsoDate, isValidZone } from '../time-zone.js';
import { scanAndQueue } from './sync.js';

export { billable } from '../report-rows.js';

const BY: readonly string[] = ['day', 'model', 'source', 'project', 'block', 'session'];

/** Printed under the table: how the columns add up, in one line. */
export const COLUMNS_NOTE =
  'Each row adds up: input (uncached) + cached + output + reasoning = total. Codex and Every Code count cached tokens inside input and reasoning inside output; here they are shown apart.';

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
  if (!BY.includes(by)) throw new UsageError('--by must be day, model, source, project, block or session');
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
        await scanAndQueue(ctx, out, loadConfig(paths.configFile).projects === true);
      } finally {
        lock.release();
      }
    }
  }
  const state = new LocalState(paths.stateDir);
  const range = { tz, since: values.since, until: values.until };
  const { rows, totals } =
    by === 'session'
      ? buildSessionReport(state.buckets.entries(), state.buckets.sessionEntries(), range, await loadPricer())
      : buildReport(state.buckets.entries(), { ...range, by: by as ReportBy, now: ctx.now() }, await loadPricer());
  if (values.json === true) {
    out.data(
      JSON.stringify({ tz, since: values.since ?? null, until: values.until ?? null, by, rows, totals }, null, 2),
    );
    return 0;
  }
  if (rows.length === 0) {
    out.data(
      by === 'block'
        ? 'No Claude usage recorded for this range (blocks are Claude 5-hour windows). Run `tokentally sync` first.'
        : 'No usage recorded for this range. Run `tokentally sync` first.',
    );
    return 0;
  }
  out.data(renderReport(by as ReportBy, rows, totals, tz, createStyle(ctx.env, ctx.stdout)));
  return 0;
}

/** The report as a person reads it: aligned columns that add up, then one line on how. */
export function renderReport(
  by: ReportBy,
  rows: readonly ReportRow[],
  totals: ReportRow,
  tz: string,
  style: ReturnType<typeof createStyle>,
): string {
  const showOther = [...rows, totals].some((r) => r.other_tokens !== 0);
  const showBillable = [...rows, totals].some((r) => r.billable_total_tokens !== r.total_tokens);
  const showProject = rows.some((r) => r.project !== undefined);
  const lead =
    by === 'session'
      ? (r: ReportRow): string[] => sessionCells(r, tz, showProject)
      : (r: ReportRow): string[] => [r.active === true ? `${r.key} (active)` : r.key];
  const header = [
    ...(by === 'session' ? SESSION_HEADER(showProject) : [by === 'block' ? 'block (5 h, Claude)' : by]),
    'input (uncached)',
    'cached',
    'output',
    'reasoning',
    ...(showOther ? ['other'] : []),
    'total',
    ...(showBillable ? ['billable'] : []),
    'cost',
  ];
  const cells = (r: ReportRow): string[] => [
    ...lead(r),
    formatTokens(r.uncached_input_tokens),
    formatTokens(r.cached_input_tokens),
    formatTokens(r.non_reasoning_output_tokens),
    formatTokens(r.reasoning_output_tokens),
    ...(showOther ? [formatTokens(r.other_tokens)] : []),
    formatTokens(r.total_tokens),
    ...(showBillable ? [formatTokens(r.billable_total_tokens)] : []),
    formatUsd(BigInt(r.cost_usd.replace('.', ''))),
  ];
  const body = table(
    header.map(style.bold),
    [...rows.map(cells), cells(totals).map(style.bold)],
    by === 'session' ? SESSION_HEADER(showProject).length : 1,
  );
  const notes = [
    showOther
      ? `${COLUMNS_NOTE.replace(' = total', ' + other = total')} "other" is what a tool's own total holds beyond these.`
      : COLUMNS_NOTE,
  ];
  if (showBillable)
    notes.push(
      'billable: the tokens the server bills by its per-source rule, shown because it differs from total here.',
    );
  if (by === 'session') {
    notes.push(
      `Start and end: the first and last half-hour of each session's usage, in ${tz}${shortensIds(rows) ? '; session ids shortened (--json has them whole)' : ''}.`,
    );
    if (rows.some((r) => r.key === NO_SESSION))
      notes.push(
        `${NO_SESSION}: usage read before this version kept sessions, or from logs that name none (a first read from a fresh state assigns it).`,
      );
    notes.push(`Cost from the server's price data, per model and UTC day.`);
  } else notes.push(`Days in ${tz}; cost from the server's price data, per model and UTC day.`);
  return `${body}\n\n${notes.map(style.dim).join('\n')}`;
}
