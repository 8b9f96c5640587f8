/**
 * @fileoverview `report --by session`: one row per agent session (start, end, agent, project,
 * the adding-up columns, cost), from the bucket store's per-session totals (buckets.ts keeps
 * every half-hour bucket also split by the session its records came from). Start and end are the
 * first half-hour's start and the last half-hour's end: the store keeps half-hours, not
 * instants. Usage read before this CLI kept sessions (or from a log that names none) is what the
 * buckets hold beyond their sessions: it is one `(no session)` row per agent, so the rows still
 * add up to every other report's total.
 */
import { parseBucketKey, parseSessionKey } from './buckets.js';
import { microsToUsd, type PricedBucket, type Pricer } from './cost.js';
import { addTo, emptyRow, type ReportOptions, type ReportRow } from './report-rows.js';
import { localTime } from './style.js';
import { localDater } from './time-zone.js';
import { addInto, isZero, zeroCounts, type Counts } from './usage.js';
import { HALF_HOUR_MS } from '../domain/calendar.js';

/** The label of usage no session can be named for. */
export const NO_SESSION = '(no session)';

interface SessionAcc {
  row: ReportRow;
  first: number;
  last: number;
  projects: Set<string>;
  priced: PricedBucket[];
}

export function buildSessionReport(
  buckets: Iterable<[string, Counts]>,
  sessions: Iterable<[string, Counts]>,
  opts: Pick<ReportOptions, 'tz' | 'since' | 'until'>,
  costMicros: Pricer,
): { rows: ReportRow[]; totals: ReportRow } {
  const dayOf = localDater(opts.tz);
  const inRange = (hourStart: number): boolean => {
    const day = dayOf(hourStart);
    return !(opts.since !== undefined && day < opts.since) && !(opts.until !== undefined && day > opts.until);
  };
  // what each plain bucket holds beyond its sessions
  const rest = new Map<string, Counts>();
  for (const [key, c] of buckets) {
    if (!inRange(parseBucketKey(key).hourStart)) continue;
    const r = zeroCounts();
    addInto(r, c);
    rest.set(key, r);
  }
  const accs = new Map<string, SessionAcc>();
  const all: PricedBucket[] = [];
  const totals = emptyRow('total');
  const file = (
    source: string,
    session: string,
    hourStart: number,
    model: string,
    project: string,
    c: Counts,
  ): void => {
    const id = `${source}\u0000${session}`;
    let acc = accs.get(id);
    if (acc === undefined) {
      const row = emptyRow(session === '' ? NO_SESSION : session);
      row.source = source;
      if (session !== '') row.session = session;
      accs.set(id, (acc = { row, first: hourStart, last: hourStart, projects: new Set(), priced: [] }));
    }
    acc.first = Math.min(acc.first, hourStart);
    acc.last = Math.max(acc.last, hourStart);
    if (project !== '') acc.projects.add(project);
    const bucket: PricedBucket = { hourStart, source, model, counts: c };
    acc.priced.push(bucket);
    all.push(bucket);
    addTo(acc.row, source, c);
    addTo(totals, source, c);
  };
  for (const [key, c] of sessions) {
    const id = parseSessionKey(key);
    if (!inRange(id.hourStart) || isZero(c)) continue;
    const base = key.slice(0, key.length - id.session.length - 1);
    const r = rest.get(base);
    if (r !== undefined) addInto(r, c, -1);
    file(id.source, id.session, id.hourStart, id.model, id.project, c);
  }
  for (const [key, c] of rest) {
    if (isZero(c)) continue;
    const id = parseBucketKey(key);
    file(id.source, '', id.hourStart, id.model, id.project, c);
  }
  const rows: ReportRow[] = [];
  for (const acc of accs.values()) {
    const row = acc.row;
    row.cost_usd = microsToUsd(costMicros(acc.priced));
    row.start = new Date(acc.first).toISOString();
    row.end = new Date(acc.last + HALF_HOUR_MS).toISOString();
    if (acc.projects.size > 0) row.project = [...acc.projects].sort().join(', ');
    rows.push(row);
  }
  totals.cost_usd = microsToUsd(costMicros(all));
  rows.sort(
    (a, b) =>
      (a.start as string).localeCompare(b.start as string) ||
      (a.source as string).localeCompare(b.source as string) ||
      a.key.localeCompare(b.key),
  );
  return { rows, totals };
}

/** The leading columns of a session row. */
export const SESSION_HEADER = (project: boolean): string[] => [
  'session',
  'agent',
  'start',
  'end',
  ...(project ? ['project'] : []),
];

/** Ids longer than this are shortened in the table (a UUID's first block names it well enough). */
const SHOWN_ID = 13;

/** Whether the table shortens any of these rows' ids. */
export const shortensIds = (rows: readonly ReportRow[]): boolean => rows.some((r) => r.key.length > SHOWN_ID);

/** The leading cells of a session row: the id (shortened), agent, local start, end (time only on the same day), project. */
export function sessionCells(r: ReportRow, tz: string, project: boolean): string[] {
  if (r.key === 'total') return ['total', '', '', '', ...(project ? [''] : [])];
  const id = r.key.length > SHOWN_ID ? `${r.key.slice(0, SHOWN_ID - 1)}…` : r.key;
  const start = r.start === undefined ? '' : localTime(Date.parse(r.start), tz);
  const endFull = r.end === undefined ? '' : localTime(Date.parse(r.end), tz);
  // "2026-11-01 13:00 UTC" → the same day's end as "15:30"
  const end = endFull.slice(0, 10) === start.slice(0, 10) ? endFull.slice(11, 16) : endFull;
  return [id, r.source ?? '', start, end, ...(project ? [r.project ?? ''] : [])];
}
