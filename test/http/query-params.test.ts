/**
 * @fileoverview Query parameters the domain reads from text: /openapi.json states their types,
 * a refusal is the domain's own words naming the parameter, blank and padded text reads as
 * before, and `debug=1` times each request's own queries, also when several run at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { B } from './usage-helpers.js';

type Row = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  schema: Row;
}

describe(`typed query parameters (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  let parameters: (path: string) => Map<string, Row>;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t);
    const device = await issueDevice(t, user, 'laptop');
    expect((await ingest(t, device.token, [B.b1, B.b2, B.b3])).statusCode).toBe(200);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, { get: { parameters: Parameter[] } }>;
    }>();
    parameters = (path) =>
      new Map((doc.paths[path]?.get.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
  });
  afterAll(async () => t.close());

  const get = (op: string, query: string) =>
    t.app.inject({ method: 'GET', url: `/functions/svc-${op}?${query}`, headers: bearer(user.accessToken) });

  it('/openapi.json gives numbers, enums and dates their types', () => {
    const monthly = parameters('/functions/svc-usage-monthly');
    expect(monthly.get('months')).toMatchObject({ type: 'integer', minimum: 1, maximum: 24, default: 24 });
    expect(monthly.get('tz_offset_minutes')).toMatchObject({ type: 'integer', minimum: -720, maximum: 840 });
    expect(monthly.get('to')).toMatchObject({ type: 'string', format: 'date' });
    const heatmap = parameters('/functions/svc-usage-heatmap');
    expect(heatmap.get('weeks')).toMatchObject({ type: 'integer', minimum: 1, maximum: 104, default: 52 });
    expect(JSON.stringify(heatmap.get('week_starts_on'))).toMatch(/"sun".*"mon"/);
    expect(parameters('/functions/svc-project-usage-summary').get('limit')).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 10,
      default: 3,
    });
    expect(parameters('/functions/svc-usage-summary').get('from')).toMatchObject({ type: 'string', format: 'date' });
    expect(parameters('/functions/svc-usage-hourly').get('day')).toMatchObject({ type: 'string', format: 'date' });
    expect(parameters('/functions/svc-export').get('from')).toMatchObject({ type: 'string', format: 'date' });
  });

  it("a refusal is the domain's message, naming the parameter", async () => {
    const cases: [string, string, string, string][] = [
      ['usage-monthly', 'months=25', 'months', 'months must be a whole number from 1 to 24 (got 25)'],
      ['usage-monthly', 'months=1e1', 'months', 'months must be a whole number from 1 to 24 (got 1e1)'],
      ['usage-heatmap', 'week_starts_on=tue', 'week_starts_on', 'week_starts_on must be "sun" or "mon" (got "tue")'],
      ['project-usage-summary', 'limit=0x10', 'limit', 'limit must be a whole number from 1 to 10 (got 0x10)'],
      [
        'usage-daily',
        'tz_offset_minutes=%201.5',
        'tz_offset_minutes',
        'tz_offset_minutes must be a whole number of minutes east of UTC (got " 1.5")',
      ],
      [
        'usage-summary',
        'to=2026-02-30',
        'to',
        'to must be a real calendar date written YYYY-MM-DD, 1900 or later (got "2026-02-30")',
      ],
      ['export', 'from=', 'from', 'from must be a real calendar date written YYYY-MM-DD, 1900 or later (got "")'],
    ];
    for (const [op, query, param, message] of cases) {
      const res = await get(op, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({
        detail: `querystring.${param}: ${message}`,
        errors: [{ path: `/querystring/${param}`, message }],
      });
    }
  });

  it("checks the zone first, then the view's parameters, `to` before `from`, as the use cases do", async () => {
    const first = async (op: string, query: string) =>
      (await get(op, query)).json<{ errors: { path: string }[] }>().errors[0]?.path;
    expect(await first('usage-monthly', 'months=x&tz=Nowhere/City')).toBe('/querystring/tz');
    expect(await first('usage-monthly', 'months=x&tz_offset_minutes=x&tz=Nowhere/City')).toBe(
      '/querystring/tz_offset_minutes',
    );
    expect(await first('usage-heatmap', 'to=x&week_starts_on=x&weeks=x')).toBe('/querystring/weeks');
    expect(await first('usage-summary', 'from=x&to=x')).toBe('/querystring/to');
    expect(await first('usage-summary', `from=x&source=${'s'.repeat(65)}`)).toBe('/querystring/source');
    expect(await first('usage-monthly', 'months=123456789')).toBe('/querystring/months');
  });

  it('reads blank, padded and signed text as before', async () => {
    const months = await get('usage-monthly', 'months=%20%2B3%20&to=%202026-03-31&tz_offset_minutes=');
    expect(months.statusCode).toBe(200);
    expect(months.json()).toMatchObject({ months: 3, from: '2026-01-01', to: '2026-03-31' });
    const blank = await get('usage-heatmap', 'weeks=&week_starts_on=MON&to=2026-03-08');
    expect(blank.json()).toMatchObject({ week_starts_on: 'mon', from: '2025-03-10' });
  });

  it("debug=1 counts only its own request's queries, also when several run at once", async () => {
    const alone = (await get('usage-summary', 'from=2026-03-01&to=2026-03-31&debug=1')).json<{
      debug: { queries: number };
    }>().debug.queries;
    const together = await Promise.all([
      get('usage-summary', 'from=2026-03-01&to=2026-03-31&debug=1'),
      get('usage-summary', 'from=2026-03-01&to=2026-03-31&debug=1'),
      get('usage-summary', 'from=2026-03-01&to=2026-03-31'),
      get('user-status', 'debug=1'),
    ]);
    expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(together.slice(0, 2).map((r) => r.json<{ debug: { queries: number } }>().debug.queries)).toEqual([
      alone,
      alone,
    ]);
    expect(together[2]?.json()).not.toHaveProperty('debug');
    // getUserStatus: the account, its grants, subscriptions, devices and its stored-bucket count.
    expect(together[3]?.json<{ debug: { queries: number } }>().debug.queries).toBe(5);
  });
});
