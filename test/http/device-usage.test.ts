/**
 * The analytics reads' `device_id` filter (docs/analytics.md, "One device"): one device's usage,
 * read from its raw buckets, exact in tokens and in cost. The reference for a device's answer is
 * the unfiltered answer of an account whose only device uploaded the same buckets.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

const at = (day: number, hour: number) => new Date(Date.UTC(2026, 9, day, hour, 30)).toISOString();

/** The laptop: two models over several days, two projects in one half-hour. */
const LAPTOP: BucketInput[] = [
  {
    hour_start: at(25, 3),
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 1200,
    output_tokens: 300,
    total_tokens: 1500,
  },
  {
    hour_start: at(28, 14),
    source: 'claude',
    model: 'claude-sonnet-4-5-20250929',
    input_tokens: 40_000,
    cached_input_tokens: 9000,
    output_tokens: 7000,
    total_tokens: 56_000,
    project_key: 'p1',
  },
  {
    hour_start: at(28, 14),
    source: 'claude',
    model: 'claude-sonnet-4-5-20250929',
    input_tokens: 1000,
    output_tokens: 20,
    total_tokens: 1020,
    project_key: 'p2',
  },
  {
    hour_start: at(31, 23),
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 77_777,
    output_tokens: 3333,
    total_tokens: 81_110,
  },
];
/** The desktop: another model, and a half-hour the laptop has too. */
const DESKTOP: BucketInput[] = [
  {
    hour_start: at(28, 14),
    source: 'codex',
    model: 'gpt-5-mini',
    input_tokens: 500_000,
    output_tokens: 12_345,
    total_tokens: 512_345,
  },
  {
    hour_start: at(30, 2),
    source: 'claude',
    model: 'claude-opus-4-1',
    input_tokens: 9000,
    output_tokens: 900,
    total_tokens: 9900,
  },
];

const RANGE = 'from=2026-10-24&to=2026-11-01&tz=America/New_York';

describe(`the device filter (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  let laptop: { token: string; deviceId: string };
  let desktop: { token: string; deviceId: string };
  let alone: TestUser;

  beforeEach(async () => {
    t = await createTestApp();
    user = await signUp(t);
    laptop = await issueDevice(t, user, 'laptop');
    desktop = await issueDevice(t, user, 'desktop');
    expect((await ingest(t, laptop.token, LAPTOP)).statusCode).toBe(200);
    expect((await ingest(t, desktop.token, DESKTOP)).statusCode).toBe(200);
    // The reference: an account whose one device uploaded the laptop's buckets.
    alone = await signUp(t);
    expect((await ingest(t, (await issueDevice(t, alone, 'only')).token, LAPTOP)).statusCode).toBe(200);
  });
  afterEach(async () => t.close());

  const get = async (who: TestUser, path: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/functions/${path}`, headers: bearer(who.accessToken) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Record<string, unknown>>();
  };
  const device = (d: { deviceId: string }) => `device_id=${d.deviceId}`;

  it('answers the summary, days, months, heatmap and model breakdown of one device, cost included', async () => {
    for (const path of [
      `svc-usage-summary?${RANGE}`,
      `svc-usage-daily?${RANGE}`,
      `svc-usage-monthly?months=2&to=2026-11-01&tz=America/New_York`,
      `svc-usage-heatmap?weeks=2&to=2026-11-01&tz=America/New_York`,
      `svc-usage-model-breakdown?${RANGE}`,
    ]) {
      const mine = await get(user, `${path}&${device(laptop)}`);
      const reference = await get(alone, path);
      expect(mine, path).toEqual(reference);
    }
  });

  it('answers the half-hours of one day of one device, and filters by source and model with it', async () => {
    const day = 'day=2026-10-28&tz=UTC';
    const mine = (await get(user, `svc-usage-hourly?${day}&${device(laptop)}`)) as { data: unknown };
    expect(mine.data).toEqual(((await get(alone, `svc-usage-hourly?${day}`)) as { data: unknown }).data);
    const codex = await get(user, `svc-usage-summary?${RANGE}&${device(laptop)}&source=codex`);
    expect(codex).toEqual(await get(alone, `svc-usage-summary?${RANGE}&source=codex`));
    const sonnet = await get(user, `svc-usage-daily?${RANGE}&${device(laptop)}&model=claude-sonnet-4-5`);
    expect(sonnet).toEqual(await get(alone, `svc-usage-daily?${RANGE}&model=claude-sonnet-4-5`));
  });

  it("the devices' tokens add up to the account's", async () => {
    const totals = async (query: string) =>
      ((await get(user, `svc-usage-summary?${RANGE}${query}`)) as { totals: Record<string, string> }).totals;
    const [all, a, b] = await Promise.all([totals(''), totals(`&${device(laptop)}`), totals(`&${device(desktop)}`)]);
    for (const field of ['total_tokens', 'billable_total_tokens', 'input_tokens', 'output_tokens'])
      expect(BigInt(a[field] ?? '') + BigInt(b[field] ?? ''), field).toBe(BigInt(all[field] ?? ''));
    expect(b.total_tokens).toBe(String(512_345 + 9900));
    expect(Number(a.total_cost_usd)).toBeGreaterThan(0);
    expect(Number(b.total_cost_usd)).toBeGreaterThan(0);
  });

  it("keeps a revoked device's usage readable", async () => {
    const revoked = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-revoke',
      headers: bearer(user.accessToken),
      payload: { device_id: desktop.deviceId },
    });
    expect(revoked.statusCode).toBe(200);
    const body = (await get(user, `svc-usage-summary?${RANGE}&${device(desktop)}`)) as {
      totals: { total_tokens: string };
    };
    expect(body.totals.total_tokens).toBe(String(512_345 + 9900));
  });

  it("refuses another user's device and an unknown one with 400, naming device_id", async () => {
    const other = await issueDevice(t, alone, 'theirs');
    for (const id of [
      other.deviceId,
      '00000000-0000-4000-8000-000000000000',
      'not-a-device',
      '%C3%A9%F0%9F%92%A5',
      'x'.repeat(65),
    ]) {
      for (const path of ['svc-usage-summary', 'svc-usage-daily', 'svc-usage-model-breakdown', 'svc-usage-hourly']) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/functions/${path}?device_id=${id}`,
          headers: bearer(user.accessToken),
        });
        expect(res.statusCode, `${path} ${id}`).toBe(400);
        expect(res.json().errors[0].path).toBe('/querystring/device_id');
      }
    }
  });
});
