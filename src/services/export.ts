/**
 * @fileoverview exportUsage: everything a user owns as JSON or CSV, produced page by page (an
 * async generator of text chunks of about EXPORT_STREAM_BYTES, read on only when asked for the
 * next, export-stream.ts), so a year of half-hours from several devices streams in constant
 * memory. Each page is read on an event-loop turn of its own (the other requests' turns come
 * between two pages, even on SQLite, whose reads do not wait for I/O). Counts are exact decimal
 * strings in JSON (as everywhere in the interface); cost is the stored daily cost in USD with six
 * places (docs/pricing.md), every row's priced by the data of the first page's: should a repricing
 * end while the export is read, the later pages' costs are computed with the earlier data (what the
 * stored cost was, row by row).
 *
 * Order: buckets grouped by device (oldest device first), each in time order; then daily rows
 * by UTC day, source and model. Format: docs/sharing.md, "Export".
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../db/connect.js';
import {
  listBucketPage,
  listDailyPage,
  listExportDevices,
  type BucketKey,
  type DailyKey,
  type ExportBucket,
  type ExportDaily,
} from '../db/queries/export.js';
import { DAY_MS, epochDayOf, formatEpochDay, parseLocalDate } from '../domain/calendar.js';
import { InvalidParamError } from '../domain/param-error.js';
import type { TokenCounts } from '../domain/token-counts.js';
import { rowCostMicros } from '../pricing/cost.js';
import { formatMicros } from '../pricing/money.js';
import { EXPORT_STREAM_BYTES } from './export-stream.js';
import type { PriceService, PriceSource } from '../pricing/index.js';

export type ExportFormat = 'json' | 'csv';

/** UTC days [fromDay, toDay] (epoch days); `from`/`to` as asked (null: all time). */
export interface ExportRange {
  from: string | null;
  to: string | null;
  fromDay: number;
  toDay: number;
}

/** Rows read per query. */
export const EXPORT_PAGE = 2000;
/** Wider than any stored instant (ingest accepts 2020-01-01 … now + 1 day). */
const ALL_TIME = { fromDay: 0, toDay: epochDayOf('9999-12-31') };

/** Checks `from`/`to` (UTC days, inclusive); throws InvalidParamError naming the parameter. */
export function parseExportRange(from: string | undefined, to: string | undefined): ExportRange {
  const fromDay = from === undefined ? ALL_TIME.fromDay : epochDayOf(parseLocalDate(from, 'from'));
  const toDay = to === undefined ? ALL_TIME.toDay : epochDayOf(parseLocalDate(to, 'to'));
  if (fromDay > toDay)
    throw new InvalidParamError('to', `to must not be before from (got ${from ?? ''} … ${to ?? ''})`);
  return { from: from ?? null, to: to ?? null, fromDay, toDay };
}

const COUNT_FIELDS = [
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'reasoning_output_tokens',
  'total_tokens',
  'billable_total_tokens',
] as const;
const countsOf = (c: Readonly<TokenCounts>): bigint[] => [
  c.input,
  c.cached,
  c.output,
  c.reasoning,
  c.total,
  c.billable,
];

const instant = (ms: bigint) => new Date(Number(ms)).toISOString().replace('.000Z', 'Z');

/** One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A text cell (a name the user or an agent chose): one a spreadsheet would read as a formula (it
 * begins with `=`, `+`, `-`, `@`, a tab or a CR) gets a `'` before it (OWASP, "CSV Injection"), so it
 * is shown as the text it is. The cells the export computes itself (instants, days, counts, costs)
 * are never negative and are written as they are.
 */
export function csvText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export const CSV_HEADER = [
  'record',
  'hour_start',
  'day',
  'device',
  'source',
  'model',
  'project',
  'project_ref',
  ...COUNT_FIELDS,
  'cost_usd',
];

function bucketJson(device: string, b: ExportBucket): string {
  const counts = countsOf(b);
  return JSON.stringify({
    hour_start: instant(b.hourStart),
    device,
    source: b.source,
    model: b.model,
    project: b.projectKey === '' ? null : b.projectKey,
    project_ref: b.projectRef,
    ...Object.fromEntries(COUNT_FIELDS.map((f, i) => [f, (counts[i] as bigint).toString()])),
  });
}

function bucketCsv(device: string, b: ExportBucket): string {
  const fields = [
    'bucket',
    instant(b.hourStart),
    '',
    csvText(device),
    csvText(b.source),
    csvText(b.model),
    csvText(b.projectKey),
    csvText(b.projectRef ?? ''),
    ...countsOf(b).map(String),
    '',
  ];
  return fields.map(csvField).join(',');
}

function dailyJson(d: ExportDaily): string {
  const counts = countsOf(d);
  return JSON.stringify({
    day: formatEpochDay(Number(d.day)),
    source: d.source,
    model: d.model,
    ...Object.fromEntries(COUNT_FIELDS.map((f, i) => [f, (counts[i] as bigint).toString()])),
    cost_usd: formatMicros(d.costMicros),
  });
}

function dailyCsv(d: ExportDaily): string {
  const fields = [
    'day',
    '',
    formatEpochDay(Number(d.day)),
    '',
    csvText(d.source),
    csvText(d.model),
    '',
    '',
    ...countsOf(d).map(String),
    formatMicros(d.costMicros),
  ];
  return fields.map(csvField).join(',');
}

async function* bucketPages(
  db: Db,
  userId: string,
  range: ExportRange,
  pageSize: number,
): AsyncGenerator<{ device: string; rows: ExportBucket[] }> {
  const fromMs = range.fromDay * DAY_MS;
  const toMs = (range.toDay + 1) * DAY_MS;
  for (const device of await listExportDevices(db.kysely, userId)) {
    let after: BucketKey | undefined;
    for (;;) {
      await nextTurn();
      const rows = await listBucketPage(db.kysely, { deviceId: device.id, fromMs, toMs, after, limit: pageSize });
      if (rows.length > 0) yield { device: device.name, rows };
      if (rows.length < pageSize) break;
      after = rows[rows.length - 1];
    }
  }
}

async function* dailyPages(
  db: Db,
  prices: PriceSource<PriceService>,
  userId: string,
  range: ExportRange,
  pageSize: number,
): AsyncGenerator<ExportDaily[]> {
  let after: DailyKey | undefined;
  let pricedBy: string | null | undefined; // the first page's data (each page is read in one statement)
  for (;;) {
    await nextTurn();
    const rows = await listDailyPage(db.kysely, {
      userId,
      fromDay: range.fromDay,
      toDay: range.toDay,
      after,
      limit: pageSize,
    });
    const page = rows[0]?.pricedBy;
    if (page !== undefined) {
      if (pricedBy === undefined) pricedBy = page;
      if (pricedBy === null || page === pricedBy) yield rows;
      else {
        const first = await prices.of(pricedBy);
        yield rows.map((d) => ({ ...d, costMicros: rowCostMicros(first, d.source, d.model, Number(d.day), d) }));
      }
    }
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1];
  }
}

/**
 * The export as text chunks (one per page read). JSON ends with `totals`: the buckets' counts
 * summed and the daily rows' cost summed, over the same UTC days.
 */
export async function* exportChunks(
  db: Db,
  q: {
    userId: string;
    range: ExportRange;
    format: ExportFormat;
    generatedAt: number;
    pageSize?: number;
    prices: PriceSource<PriceService>;
  },
): AsyncGenerator<string> {
  const pageSize = q.pageSize ?? EXPORT_PAGE;
  const csv = q.format === 'csv';
  if (csv) yield CSV_HEADER.join(',') + '\r\n';
  else {
    const head = {
      user_id: q.userId,
      from: q.range.from,
      to: q.range.to,
      generated_at: new Date(q.generatedAt).toISOString(),
    };
    yield `${JSON.stringify(head).slice(0, -1)},\n"buckets":[`;
  }
  const sums = [0n, 0n, 0n, 0n, 0n, 0n];
  let first = true;
  let text = '';
  for await (const page of bucketPages(db, q.userId, q.range, pageSize)) {
    for (const b of page.rows) {
      countsOf(b).forEach((v, i) => (sums[i] = (sums[i] as bigint) + v));
      text += csv ? bucketCsv(page.device, b) + '\r\n' : (first ? '\n' : ',\n') + bucketJson(page.device, b);
      first = false;
      if (text.length >= EXPORT_STREAM_BYTES) {
        yield text;
        text = '';
      }
    }
  }
  if (!csv) text += '\n],\n"daily":[';
  let cost = 0n;
  first = true;
  for await (const rows of dailyPages(db, q.prices, q.userId, q.range, pageSize)) {
    for (const d of rows) {
      cost += d.costMicros;
      text += csv ? dailyCsv(d) + '\r\n' : (first ? '\n' : ',\n') + dailyJson(d);
      first = false;
      if (text.length >= EXPORT_STREAM_BYTES) {
        yield text;
        text = '';
      }
    }
  }
  if (!csv) {
    const totals = {
      ...Object.fromEntries(COUNT_FIELDS.map((f, i) => [f, (sums[i] as bigint).toString()])),
      total_cost_usd: formatMicros(cost),
    };
    text += `\n],\n"totals":${JSON.stringify(totals)}}\n`;
  }
  if (text !== '') yield text;
}
