import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportChunks, parseExportRange } from '../../src/services/export.js';
import { PriceBook } from '../../src/services/price-book.js';
import { createPriceService } from '../../src/pricing/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';

interface ExportJson {
  user_id: string;
  from: string | null;
  to: string | null;
  buckets: Record<string, string | null>[];
  daily: Record<string, string>[];
  totals: Record<string, string>;
}

const bucket = (iso: string, model: string, n: number, project?: string) => ({
  hour_start: iso,
  source: 'codex',
  model,
  input_tokens: n,
  cached_input_tokens: Math.floor(n / 2),
  output_tokens: 7,
  reasoning_output_tokens: 3,
  total_tokens: n + 7,
  ...(project ? { project_key: project, project_ref: `https://github.com/${project}` } : {}),
});

/** A minimal RFC 4180 reader (quoted fields, doubled quotes, CRLF), enough to check our writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

describe('exportUsage', () => {
  let t: TestApp;
  let ada: TestUser;
  beforeEach(async () => {
    t = await createTestApp();
    ada = await signUp(t);
    const bob = await signUp(t);
    const laptop = await issueDevice(t, ada, 'laptop, "work"');
    t.clock.advance(1000); // devices are exported oldest first
    const desk = await issueDevice(t, ada, 'desk');
    const other = await issueDevice(t, bob, 'bobs');
    expect(
      (
        await ingest(t, laptop.token, [
          bucket('2026-10-30T10:00:00Z', 'gpt-5', 100, 'acme/app'),
          bucket('2026-10-30T10:30:00Z', 'gpt-5', 200),
          bucket('2026-10-31T23:30:00Z', 'gpt-5', 50),
        ])
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await ingest(t, desk.token, [
          bucket('2026-10-29T00:00:00Z', 'claude-sonnet-4', 1000),
          bucket('2026-10-30T10:00:00Z', 'gpt-5', 1),
        ])
      ).statusCode,
    ).toBe(200);
    expect((await ingest(t, other.token, [bucket('2026-10-30T10:00:00Z', 'gpt-5', 999_999)])).statusCode).toBe(200);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (query: string, token = ada.accessToken) =>
    t.app.inject({ method: 'GET', url: `/functions/svc-export${query}`, headers: bearer(token) });

  it('JSON: every bucket of every device of the caller, daily rows with cost, totals; an attachment', async () => {
    const res = await get('');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="tokentally-export-2026-11-01.json"');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<ExportJson>();
    expect(body.user_id).toBe(ada.id);
    expect([body.from, body.to]).toEqual([null, null]);
    expect(body.buckets).toHaveLength(5);
    expect(body.buckets[0]).toEqual({
      hour_start: '2026-10-30T10:00:00Z',
      device: 'laptop, "work"',
      source: 'codex',
      model: 'gpt-5',
      project: 'acme/app',
      project_ref: 'https://github.com/acme/app',
      input_tokens: '100',
      cached_input_tokens: '50',
      output_tokens: '7',
      reasoning_output_tokens: '3',
      total_tokens: '107',
      billable_total_tokens: '107',
    });
    expect(body.buckets.map((b) => b.device)).toEqual([
      'laptop, "work"',
      'laptop, "work"',
      'laptop, "work"',
      'desk',
      'desk',
    ]);
    expect(body.buckets.some((b) => b.input_tokens === '999999')).toBe(false);
    expect(body.daily.map((d) => [d.day, d.model, d.input_tokens])).toEqual([
      ['2026-10-29', 'claude-sonnet-4', '1000'],
      ['2026-10-30', 'gpt-5', '301'],
      ['2026-10-31', 'gpt-5', '50'],
    ]);
    for (const d of body.daily) expect(d['cost_usd']).toMatch(/^\d+\.\d{6}$/);
    // Totals agree with the summary over the same UTC days, cost included.
    const summary = await t.app.inject({
      method: 'GET',
      url: '/functions/svc-usage-summary?from=2026-10-29&to=2026-10-31',
      headers: bearer(ada.accessToken),
    });
    const totals = summary.json<{ totals: Record<string, string> }>().totals;
    for (const [k, v] of Object.entries(body.totals)) expect([k, v]).toEqual([k, totals[k]]);
  });

  it('a range of UTC days, inclusive; bad parameters are 400', async () => {
    const body = (await get('?from=2026-10-30&to=2026-10-30')).json<ExportJson>();
    expect([body.from, body.to]).toEqual(['2026-10-30', '2026-10-30']);
    expect(body.buckets.map((b) => b.hour_start)).toEqual([
      '2026-10-30T10:00:00Z',
      '2026-10-30T10:30:00Z',
      '2026-10-30T10:00:00Z',
    ]);
    expect(body.daily.map((d) => d.day)).toEqual(['2026-10-30']);
    expect(body.totals['input_tokens']).toBe('301');
    const empty = (await get('?from=2030-01-01')).json<ExportJson>();
    expect([empty.buckets, empty.daily, empty.totals['total_tokens']]).toEqual([[], [], '0']);
    for (const q of ['?from=2026-02-30', '?to=yesterday', '?from=2026-10-31&to=2026-10-30', '?format=xml']) {
      const res = await get(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.headers['content-type'], q).toMatch(/problem\+json/);
    }
  });

  it('CSV: quoted as RFC 4180, one row per bucket and per day', async () => {
    const res = await get('?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="tokentally-export-2026-11-01.csv"');
    expect(res.body).toContain('"laptop, ""work"""');
    const rows = parseCsv(res.body);
    const header = rows[0] as string[];
    expect(header.slice(0, 8)).toEqual([
      'record',
      'hour_start',
      'day',
      'device',
      'source',
      'model',
      'project',
      'project_ref',
    ]);
    expect(rows.every((r) => r.length === header.length)).toBe(true);
    const records = rows.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
    expect(records.filter((r) => r['record'] === 'bucket')).toHaveLength(5);
    expect(records.filter((r) => r['record'] === 'day')).toHaveLength(3);
    expect(records[0]).toMatchObject({
      record: 'bucket',
      hour_start: '2026-10-30T10:00:00Z',
      device: 'laptop, "work"',
      project: 'acme/app',
      input_tokens: '100',
      cost_usd: '',
    });
    expect(records.at(-1)).toMatchObject({ record: 'day', day: '2026-10-31', model: 'gpt-5', input_tokens: '50' });
  });

  it('CSV: a text cell that a spreadsheet would read as a formula is written with a quote before it', async () => {
    const evil = await issueDevice(t, ada, '=HYPERLINK("http://x","y")');
    const res = await ingest(t, evil.token, [
      {
        hour_start: '2026-10-28T08:00:00Z',
        source: '-2+3',
        model: '+cmd|calc',
        input_tokens: 5,
        total_tokens: 5,
        project_key: '@sum(a1)',
        project_ref: '=1+1',
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const csv = await get('?format=csv');
    expect(csv.body).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    const rows = parseCsv(csv.body);
    const header = rows[0] as string[];
    const records = rows.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
    expect(records.find((r) => r['device'] === `'=HYPERLINK("http://x","y")`)).toMatchObject({
      record: 'bucket',
      hour_start: '2026-10-28T08:00:00Z',
      source: "'-2+3",
      model: "'+cmd|calc",
      project: "'@sum(a1)",
      project_ref: "'=1+1",
      input_tokens: '5',
      total_tokens: '5',
    });
    expect(records.find((r) => r['record'] === 'day' && r['day'] === '2026-10-28')).toMatchObject({
      source: "'-2+3",
      model: "'+cmd|calc",
      input_tokens: '5',
    });
    // No cell is left that begins with a formula character; numbers and other cells are as they were.
    for (const r of rows.slice(1)) for (const cell of r) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(records.find((r) => r['device'] === 'desk')).toMatchObject({ source: 'codex', input_tokens: '1000' });
    // JSON is no spreadsheet: the names are exactly as stored.
    const json = (await get('')).json<ExportJson>();
    expect(json.buckets.find((b) => b['source'] === '-2+3')).toMatchObject({
      device: '=HYPERLINK("http://x","y")',
      model: '+cmd|calc',
      project: '@sum(a1)',
      project_ref: '=1+1',
    });
  });

  it('pages continue after the last key: any page size gives the same export', async () => {
    const whole = async (pageSize: number) => {
      let text = '';
      for await (const chunk of exportChunks(t.db, {
        userId: ada.id,
        range: parseExportRange(undefined, undefined),
        format: 'json',
        generatedAt: 0,
        pageSize,
        prices: new PriceBook(t.db, createPriceService()),
      }))
        text += chunk;
      return text;
    };
    const reference = await whole(2000);
    for (const size of [1, 2, 3]) expect(await whole(size)).toBe(reference);
    expect(JSON.parse(reference)).toMatchObject({ totals: { input_tokens: '1351' } });
  });

  it('only the user: device, share and anonymous callers are refused', async () => {
    const device = await issueDevice(t, ada, 'x');
    expect((await get('', device.token)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/functions/svc-export' })).statusCode).toBe(401);
  });
});
