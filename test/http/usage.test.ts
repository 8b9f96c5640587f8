import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPriceService } from '../../src/pricing/index.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { B, ZERO, get, ok, tokens, wireTotals, type BucketName } from './usage-helpers.js';

type Row = Record<string, unknown>;
type Daily = { data: Row[]; summary: { totals: Row; pricing: Row }; from: string; to: string; days: number };

describe(`analytics on a fixed data set (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t);
    other = await signUp(t);
    const laptop = await issueDevice(t, user, 'laptop');
    const desktop = await issueDevice(t, user, 'desktop');
    // Split over two devices: analytics sum across devices.
    const r1 = await ingest(t, laptop.token, [B.b3, B.b1, B.b2, B.b9]);
    expect(r1.statusCode, r1.body).toBe(200);
    const r2 = await ingest(t, desktop.token, [B.b4, B.b5, B.b6, B.b7]);
    expect(r2.statusCode, r2.body).toBe(200);
    // Another user's usage at the same instants must never show up.
    const theirs = await issueDevice(t, other, 'theirs');
    const big = { input_tokens: 7_000_000, output_tokens: 7_000_000, total_tokens: 14_000_000 };
    await ingest(
      t,
      theirs.token,
      Object.values(B).map((b) => ({ ...b, ...big })),
    );
  });
  afterAll(async () => t.close());

  const daily = (zone: Record<string, string | number>, from = '2026-03-07', to = '2026-03-09') =>
    ok<Daily>(t, user, 'usage-daily', { from, to, ...zone });

  const expectDays = (body: Daily, days: Record<string, BucketName[]>) => {
    expect(body.data.map((r) => r.day)).toEqual(Object.keys(days));
    for (const row of body.data)
      expect(tokens(row), String(row.day)).toEqual(wireTotals(days[row.day as string] ?? []));
  };

  it('daily in UTC: one zero-filled row per day and a summary that adds up', async () => {
    const body = await daily({});
    expect(body).toMatchObject({ from: '2026-03-07', to: '2026-03-09', days: 3, model_id: null, model: null });
    expectDays(body, { '2026-03-07': ['b3'], '2026-03-08': ['b1', 'b2', 'b4', 'b5'], '2026-03-09': [] });
    expect(body.summary.totals).toMatchObject(wireTotals(['b1', 'b2', 'b3', 'b4', 'b5']));
    expect(body.summary.totals.total_cost_usd).toMatch(/^\d+\.\d{6}$/);
    expect(body.summary.pricing).toMatchObject({ pricing_mode: 'mixed', source: 'genai-prices', model: null });
  });

  it('daily in Asia/Tokyo, America/New_York, Asia/Kolkata and Asia/Kathmandu', async () => {
    expectDays(await daily({ tz: 'Asia/Tokyo' }), {
      '2026-03-07': [],
      '2026-03-08': ['b3', 'b1', 'b2'],
      '2026-03-09': ['b4', 'b5'],
    });
    expectDays(await daily({ tz: 'America/New_York' }), {
      '2026-03-07': ['b3'],
      '2026-03-08': ['b1', 'b2', 'b4', 'b5'],
      '2026-03-09': [],
    });
    expectDays(await daily({ tz: 'Asia/Kolkata' }), {
      '2026-03-07': [],
      '2026-03-08': ['b3', 'b1', 'b2', 'b4'],
      '2026-03-09': ['b5'],
    });
    expectDays(await daily({ tz: 'Asia/Kathmandu' }), {
      '2026-03-07': [],
      '2026-03-08': ['b3', 'b1', 'b2', 'b4'],
      '2026-03-09': ['b5'],
    });
    // New York's fall-back day holds both passes of 01:30; the 23:30 bucket before it is October 31.
    expectDays(await daily({ tz: 'America/New_York' }, '2026-10-31', '2026-11-01'), {
      '2026-10-31': ['b9'],
      '2026-11-01': ['b6', 'b7'],
    });
    expectDays(await daily({}, '2026-10-31', '2026-11-01'), { '2026-10-31': [], '2026-11-01': ['b9', 'b6', 'b7'] });
  });

  it('tz wins over tz_offset_minutes; the offset alone is a fixed zone; neither is UTC', async () => {
    const tokyo = { '2026-03-07': [], '2026-03-08': ['b3', 'b1', 'b2'], '2026-03-09': ['b4', 'b5'] } as Record<
      string,
      BucketName[]
    >;
    const utc = { '2026-03-07': ['b3'], '2026-03-08': ['b1', 'b2', 'b4', 'b5'], '2026-03-09': [] } as Record<
      string,
      BucketName[]
    >;
    expectDays(await daily({ tz_offset_minutes: 540 }), tokyo);
    expectDays(await daily({ tz: 'UTC', tz_offset_minutes: 540 }), utc);
    expectDays(await daily({ tz: 'Asia/Tokyo', tz_offset_minutes: -300 }), tokyo);
    expectDays(await daily({ tz_offset_minutes: 0 }), utc);
  });

  it('summary: defaults to the 30 days ending today in the zone, totals exact', async () => {
    // "Today" is the injected clock's 2026-11-01T12:00Z.
    const body = await ok<Row>(t, user, 'usage-summary', {});
    expect(body).toMatchObject({ from: '2026-10-03', to: '2026-11-01', days: 30, model_id: null, model: null });
    expect(body.totals).toMatchObject(wireTotals(['b9', 'b6', 'b7']));
    const ny = await ok<Row>(t, user, 'usage-summary', {
      tz: 'America/New_York',
      from: '2026-11-01',
      to: '2026-11-01',
    });
    expect(ny.totals).toMatchObject(wireTotals(['b6', 'b7']));
    const all = await ok<Row>(t, user, 'usage-summary', { from: '2026-01-01', to: '2026-11-01' });
    expect(all.totals).toMatchObject(wireTotals(Object.keys(B) as BucketName[]));
  });

  it('filters by source and by model (raw name or canonical id)', async () => {
    const prices = createPriceService();
    const gpt5 = prices.identify('gpt-5');
    expect(prices.identify('gpt-5-2025-08-07').model_id).toBe(gpt5.model_id);
    expect(prices.identify('openai/gpt-5').model_id).toBe(gpt5.model_id);
    const range = { from: '2026-03-01', to: '2026-03-31' };
    const codex = await ok<Row>(t, user, 'usage-summary', { ...range, source: 'Codex' });
    expect(codex.totals).toMatchObject(wireTotals(['b1', 'b4', 'b5']));
    expect((codex.pricing as Row).pricing_mode).toBe('overlap');
    for (const model of ['gpt-5', 'GPT-5-2025-08-07', 'OpenAI/GPT-5', gpt5.model_id]) {
      const body = await ok<Row>(t, user, 'usage-summary', { ...range, model });
      expect(body.totals, model).toMatchObject(wireTotals(['b1', 'b4', 'b5']));
      expect(body).toMatchObject({ model_id: gpt5.model_id, model: gpt5.model });
    }
    const opus = await ok<Daily>(t, user, 'usage-daily', {
      from: '2026-03-07',
      to: '2026-03-08',
      model: 'claude-opus-4-1',
    });
    expect(opus.data.map((r) => r.total_tokens)).toEqual(['30', '0']);
    const claudeDaily = await ok<Daily>(t, user, 'usage-daily', {
      from: '2026-03-07',
      to: '2026-03-09',
      source: 'claude',
      tz: 'Asia/Tokyo',
    });
    expect(claudeDaily.data.map((r) => r.total_tokens)).toEqual(['0', '1180', '0']);
    expect(claudeDaily.summary.totals).toMatchObject(wireTotals(['b2', 'b3']));
    const none = await ok<Row>(t, user, 'usage-summary', { ...range, model: 'no-such-model' });
    expect(none.totals).toMatchObject({ ...ZERO, total_cost_usd: '0.000000' });
    const hourly = await ok<{ data: Row[] }>(t, user, 'usage-hourly', { day: '2026-03-08', model: 'gpt-5' });
    expect(hourly.data.filter((r) => r.total_tokens !== '0').map((r) => r.hour_start)).toEqual([
      '2026-03-08T06:30:00Z',
      '2026-03-08T18:00:00Z',
      '2026-03-08T18:30:00Z',
    ]);
    const monthly = await ok<{ data: Row[] }>(t, user, 'usage-monthly', {
      to: '2026-03-31',
      months: 1,
      source: 'codex',
      model: 'gpt-5-2025-08-07',
    });
    expect(tokens(monthly.data[0] as Row)).toEqual(wireTotals(['b1', 'b4', 'b5']));
  });

  it('hourly: 46 rows on the spring-forward day without any 02:xx label', async () => {
    const body = await ok<{ day: string; data: Row[]; sync: Row }>(t, user, 'usage-hourly', {
      day: '2026-03-08',
      tz: 'America/New_York',
    });
    expect(body.day).toBe('2026-03-08');
    expect(body.data).toHaveLength(46);
    expect(body.data.some((r) => String(r.hour).slice(11, 13) === '02')).toBe(false);
    expect(body.data[0]).toMatchObject({ hour: '2026-03-08T00:00:00-05:00', hour_start: '2026-03-08T05:00:00Z' });
    expect(body.data[3]).toMatchObject({
      hour: '2026-03-08T01:30:00-05:00',
      hour_start: '2026-03-08T06:30:00Z',
      ...wireTotals(['b1']),
    });
    expect(body.data[4]).toMatchObject({
      hour: '2026-03-08T03:00:00-04:00',
      hour_start: '2026-03-08T07:00:00Z',
      ...wireTotals(['b2']),
    });
    expect(body.data[45]).toMatchObject({ hour: '2026-03-08T23:30:00-04:00', hour_start: '2026-03-09T03:30:00Z' });
    expect(body.sync).toEqual({ last_sync_at: new Date(t.clock.now()).toISOString(), min_interval_minutes: 30 });
  });

  it('hourly: 50 rows on the fall-back day, 01:00 and 01:30 twice', async () => {
    const body = await ok<{ data: Row[] }>(t, user, 'usage-hourly', { day: '2026-11-01', tz: 'America/New_York' });
    expect(body.data).toHaveLength(50);
    const hours = body.data.map((r) => r.hour);
    expect(hours.slice(2, 6)).toEqual([
      '2026-11-01T01:00:00-04:00',
      '2026-11-01T01:30:00-04:00',
      '2026-11-01T01:00:00-05:00',
      '2026-11-01T01:30:00-05:00',
    ]);
    expect(body.data[3]).toMatchObject({ hour_start: '2026-11-01T05:30:00Z', ...wireTotals(['b6']) });
    expect(body.data[5]).toMatchObject({ hour_start: '2026-11-01T06:30:00Z', ...wireTotals(['b7']) });
    const sum = body.data.reduce((s, r) => s + BigInt(r.total_tokens as string), 0n);
    expect(String(sum)).toBe(wireTotals(['b6', 'b7']).total_tokens);
  });

  it('hourly: half-hour (Kolkata) and quarter-hour (Kathmandu) zones', async () => {
    const kol = await ok<{ data: Row[] }>(t, user, 'usage-hourly', { day: '2026-03-08', tz: 'Asia/Kolkata' });
    expect(kol.data).toHaveLength(48);
    expect(kol.data[0]).toMatchObject({ hour: '2026-03-08T00:00:00+05:30', hour_start: '2026-03-07T18:30:00Z' });
    expect(kol.data[47]).toMatchObject({
      hour: '2026-03-08T23:30:00+05:30',
      hour_start: '2026-03-08T18:00:00Z',
      ...wireTotals(['b4']),
    });
    const ktm = await ok<{ data: Row[] }>(t, user, 'usage-hourly', { day: '2026-03-08', tz: 'Asia/Kathmandu' });
    expect(ktm.data).toHaveLength(48);
    expect(ktm.data[0]).toMatchObject({ hour: '2026-03-08T00:15:00+05:45', hour_start: '2026-03-07T18:30:00Z' });
    expect(ktm.data[47]).toMatchObject({
      hour: '2026-03-08T23:45:00+05:45',
      hour_start: '2026-03-08T18:00:00Z',
      ...wireTotals(['b4']),
    });
    const utc = await ok<{ day: string; data: Row[] }>(t, user, 'usage-hourly', {});
    expect(utc.day).toBe('2026-11-01');
    expect(utc.data).toHaveLength(48);
    expect(utc.data[0]).toMatchObject({ hour: '2026-11-01T00:00:00+00:00', hour_start: '2026-11-01T00:00:00Z' });
  });

  it('monthly: exactly `months` rows, oldest first, zero-filled, local months', async () => {
    const utc = await ok<{ data: Row[]; months: number; from: string; to: string }>(t, user, 'usage-monthly', {
      to: '2026-11-01',
      months: 10,
    });
    expect(utc).toMatchObject({ months: 10, from: '2026-02-01', to: '2026-11-01' });
    expect(utc.data.map((r) => r.month)).toEqual([
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
    ]);
    expect(tokens(utc.data[1] as Row)).toEqual(wireTotals(['b1', 'b2', 'b3', 'b4', 'b5']));
    expect(tokens(utc.data[8] as Row)).toEqual(ZERO);
    expect(tokens(utc.data[9] as Row)).toEqual(wireTotals(['b9', 'b6', 'b7']));
    const ny = await ok<{ data: Row[] }>(t, user, 'usage-monthly', {
      to: '2026-11-01',
      months: 2,
      tz: 'America/New_York',
    });
    expect(ny.data.map((r) => [r.month, r.total_tokens])).toEqual([
      ['2026-10', wireTotals(['b9']).total_tokens],
      ['2026-11', wireTotals(['b6', 'b7']).total_tokens],
    ]);
    const def = await ok<{ data: Row[]; months: number }>(t, user, 'usage-monthly', {});
    expect(def.months).toBe(24);
    expect(def.data).toHaveLength(24);
    expect(def.data[23]?.month).toBe('2026-11');
  });

  it('heatmap: grid, values, levels, active days and streak', async () => {
    const utc = await ok<Row>(t, user, 'usage-heatmap', { to: '2026-03-09', weeks: 2, week_starts_on: 'mon' });
    expect(utc).toMatchObject({
      from: '2026-03-02',
      to: '2026-03-09',
      week_starts_on: 'mon',
      active_days: 2,
      streak_days: 0,
    });
    const weeks = utc.weeks as (Row | null)[][];
    expect(weeks).toHaveLength(2);
    expect(weeks[1]?.slice(1)).toEqual([null, null, null, null, null, null]);
    expect(weeks[0]?.[5]).toEqual({ day: '2026-03-07', value: wireTotals(['b3']).billable_total_tokens, level: 1 });
    expect(weeks[0]?.[6]).toEqual({
      day: '2026-03-08',
      value: wireTotals(['b1', 'b2', 'b4', 'b5']).billable_total_tokens,
      level: 4,
    });
    expect(utc.thresholds).toEqual({ t1: '30', t2: '30', t3: '30' });
    const tokyo = await ok<Row>(t, user, 'usage-heatmap', {
      to: '2026-03-09',
      weeks: 2,
      week_starts_on: 'mon',
      tz: 'Asia/Tokyo',
    });
    expect(tokyo).toMatchObject({ active_days: 2, streak_days: 2 });
    // A one-day grid still counts the streak back beyond it.
    const short = await ok<Row>(t, user, 'usage-heatmap', {
      to: '2026-03-09',
      weeks: 1,
      week_starts_on: 'mon',
      tz: 'Asia/Tokyo',
    });
    expect(short).toMatchObject({ from: '2026-03-09', active_days: 1, streak_days: 2 });
    const def = await ok<Row>(t, user, 'usage-heatmap', {});
    expect(def).toMatchObject({ to: '2026-11-01', week_starts_on: 'sun', streak_days: 1 });
    expect(def.weeks as unknown[]).toHaveLength(52);
  });

  it('model breakdown: sources by name, aliases under one model_id, billable descending', async () => {
    const prices = createPriceService();
    const body = await ok<{ sources: { source: string; totals: Row; models: Row[] }[]; pricing: Row }>(
      t,
      user,
      'usage-model-breakdown',
      {
        from: '2026-03-01',
        to: '2026-03-31',
        model: 'ignored',
      },
    );
    expect(body.sources.map((s) => s.source)).toEqual(['claude', 'codex']);
    const [claude, codex] = body.sources;
    expect(claude?.totals).toMatchObject(wireTotals(['b2', 'b3']));
    expect(claude?.models.map((m) => m.model_id)).toEqual([
      prices.identify('claude-sonnet-4-5').model_id,
      prices.identify('claude-opus-4-1').model_id,
    ]);
    expect(codex?.models).toHaveLength(1);
    expect(codex?.models[0]).toMatchObject({
      model_id: prices.identify('gpt-5').model_id,
      model: prices.identify('gpt-5').model,
    });
    expect(codex?.models[0]?.totals).toMatchObject(wireTotals(['b1', 'b4', 'b5']));
    expect(body.pricing).toMatchObject({ pricing_mode: 'mixed', model: null });
  });

  it('summary, breakdown and monthly follow the zone too', async () => {
    const tokyo = await ok<{ sources: { source: string; totals: Row }[] }>(t, user, 'usage-model-breakdown', {
      from: '2026-03-08',
      to: '2026-03-08',
      tz: 'Asia/Tokyo',
    });
    expect(tokyo.sources.map((s) => [s.source, s.totals.total_tokens])).toEqual([
      ['claude', wireTotals(['b2', 'b3']).total_tokens],
      ['codex', wireTotals(['b1']).total_tokens],
    ]);
    const ktm = await ok<Row>(t, user, 'usage-summary', { from: '2026-03-09', to: '2026-03-09', tz: 'Asia/Kathmandu' });
    expect(ktm.totals).toMatchObject(wireTotals(['b5']));
    const kol = await ok<Row>(t, user, 'usage-summary', { from: '2026-03-08', to: '2026-03-08', tz: 'Asia/Kolkata' });
    expect(kol.totals).toMatchObject(wireTotals(['b3', 'b1', 'b2', 'b4']));
    const tokyoMonths = await ok<{ data: Row[] }>(t, user, 'usage-monthly', {
      to: '2026-11-30',
      months: 2,
      tz: 'Asia/Tokyo',
    });
    expect(tokyoMonths.data.map((r) => [r.month, r.total_tokens])).toEqual([
      ['2026-10', '0'],
      ['2026-11', wireTotals(['b9', 'b6', 'b7']).total_tokens],
    ]);
  });

  it('project summary and one user never sees another', async () => {
    const mine = await ok<Row>(t, user, 'usage-summary', { from: '2026-03-08', to: '2026-03-08' });
    expect(mine.totals).toMatchObject(wireTotals(['b1', 'b2', 'b4', 'b5']));
    const theirs = await ok<Row>(t, other, 'usage-summary', { from: '2026-03-08', to: '2026-03-08' });
    expect((theirs.totals as Row).total_tokens).toBe(String(4 * 14_000_000));
    const p = await ok<Row>(t, user, 'project-usage-summary', {});
    expect(p).toMatchObject({ from: null, to: null, all_time: true, entries: [] });
  });

  it('debug=1 adds timing; other values of debug are a 400', async () => {
    for (const op of [
      'usage-summary',
      'usage-daily',
      'usage-hourly',
      'usage-monthly',
      'usage-heatmap',
      'usage-model-breakdown',
      'project-usage-summary',
      'user-status',
    ]) {
      const body = await ok<Row>(t, user, op, { debug: 1 });
      expect(body.debug, op).toMatchObject({
        status: 200,
        request_id: expect.any(String),
        query_ms: expect.any(Number),
        total_ms: expect.any(Number),
      });
      expect((body.debug as Row).queries as number, op).toBeGreaterThan(0);
      const plain = await ok<Row>(t, user, op, {});
      expect(plain.debug, op).toBeUndefined();
    }
    const bad = await get(t, user, 'usage-summary', { debug: 2 });
    expect(bad.status).toBe(400);
    expect((bad.body.errors as Row[])[0]?.path).toBe('/querystring/debug');
  });

  it('answers 401 without a bearer and 403 to a device token', async () => {
    const device = await issueDevice(t, user, 'probe');
    for (const op of [
      'usage-summary',
      'usage-daily',
      'usage-hourly',
      'usage-monthly',
      'usage-heatmap',
      'usage-model-breakdown',
      'project-usage-summary',
      'user-status',
    ]) {
      const anon = await t.app.inject({ method: 'GET', url: `/functions/svc-${op}` });
      expect(anon.statusCode, op).toBe(401);
      const dev = await t.app.inject({ method: 'GET', url: `/functions/svc-${op}`, headers: bearer(device.token) });
      expect(dev.statusCode, op).toBe(403);
    }
  });
});

describe(`analytics 400s (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterAll(async () => t.close());

  const cases: [string, Record<string, string | number>, string][] = [
    ['usage-summary', { tz: 'Mars/Olympus_Mons' }, 'tz'],
    ['usage-summary', { tz: '+05:30' }, 'tz'],
    ['usage-daily', { tz_offset_minutes: 900 }, 'tz_offset_minutes'],
    ['usage-daily', { tz_offset_minutes: -721 }, 'tz_offset_minutes'],
    ['usage-hourly', { tz_offset_minutes: 'abc' }, 'tz_offset_minutes'],
    ['usage-summary', { from: '2026-02-30', to: '2026-03-01' }, 'from'],
    ['usage-summary', { to: '2026-13-01' }, 'to'],
    ['usage-daily', { from: '26-01-01' }, 'from'],
    ['usage-summary', { from: '2026-03-02', to: '2026-03-01' }, 'from'],
    ['usage-daily', { from: '2024-01-01', to: '2026-03-11' }, 'from'],
    ['usage-model-breakdown', { from: '2026-03-02', to: '2026-03-01' }, 'from'],
    ['usage-model-breakdown', { tz: 'Nowhere/City' }, 'tz'],
    ['usage-hourly', { day: '2026-02-29' }, 'day'],
    ['usage-monthly', { months: 25 }, 'months'],
    ['usage-monthly', { months: 0 }, 'months'],
    ['usage-monthly', { months: 'x' }, 'months'],
    ['usage-monthly', { to: '2026-1-1' }, 'to'],
    ['usage-heatmap', { weeks: 105 }, 'weeks'],
    ['usage-heatmap', { weeks: 0 }, 'weeks'],
    ['usage-heatmap', { week_starts_on: 'tue' }, 'week_starts_on'],
    ['usage-heatmap', { to: 'today' }, 'to'],
    ['project-usage-summary', { limit: 11 }, 'limit'],
    ['project-usage-summary', { limit: 0 }, 'limit'],
    ['usage-summary', { source: 'x'.repeat(65) }, 'source'],
    ['usage-daily', { model: 'm'.repeat(129) }, 'model'],
    ['usage-heatmap', { debug: 'true' }, 'debug'],
  ];

  it.each(cases)('%s %j → 400 naming %s', async (op, query, param) => {
    const res = await get(t, user, op, query);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.raw.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((res.body.errors as Row[])[0]?.path).toBe(`/querystring/${param}`);
    expect(res.body.detail).toEqual(expect.stringContaining(param));
  });

  it('accepts the edges: 800 days, months 24, weeks 104, limit 10, unknown parameters ignored', async () => {
    expect((await get(t, user, 'usage-daily', { from: '2024-01-01', to: '2026-03-10' })).status).toBe(200);
    expect((await get(t, user, 'usage-monthly', { months: 24 })).status).toBe(200);
    expect((await get(t, user, 'usage-heatmap', { weeks: 104 })).status).toBe(200);
    expect((await get(t, user, 'project-usage-summary', { limit: 10 })).status).toBe(200);
    expect((await get(t, user, 'usage-summary', { colour: 'blue' })).status).toBe(200);
  });

  it('an empty account answers zero-filled rows', async () => {
    const d = await ok<Daily>(t, user, 'usage-daily', {});
    expect(d.data).toHaveLength(30);
    expect(d.data.every((r) => r.total_tokens === '0')).toBe(true);
    expect(d.summary.totals).toMatchObject({ ...ZERO, total_cost_usd: '0.000000' });
    expect(d.summary.pricing).toMatchObject({ pricing_mode: 'add', model: null });
  });
});
