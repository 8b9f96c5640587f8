/**
 * The prefix-piece reads parse counts of up to 15 digits as doubles and keep them doubles only
 * while every sum of them is exact (the sum of their absolute values is at most 2^53 − 1). Here
 * every stored day has 15 digits but the month's sums pass 2^53 and are odd, so doubles would
 * round them: the answers must still be exact (both engines).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest, issueDevice, signUp, TRILLION_DAY_BOUND, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { ok } from './usage-helpers.js';

type Row = Record<string, string>;

describe(`analytics sums past 2^53 from 15-digit counts (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  const DAYS = 11;
  const DEVICES = 20;
  const big = 1_000_000_000_000;
  /** Each UTC day: 20 devices × 48 half-hours of 10^12, one of them 10^12 − 1: 959,999,999,999,999 (15 digits). */
  const perDay = BigInt(DEVICES * 48) * BigInt(big) - 1n;

  beforeAll(async () => {
    t = await createTestApp({ env: TRILLION_DAY_BOUND }); // ~10^15 tokens a day: past the default day bound
    user = await signUp(t);
    for (let dev = 0; dev < DEVICES; dev++) {
      const device = await issueDevice(t, user, `box${dev}`);
      const hourly = Array.from({ length: DAYS * 48 }, (_, i) => {
        const n = dev === 0 && i % 48 === 0 ? big - 1 : big;
        return {
          hour_start: new Date(Date.UTC(2026, 9, 3) + i * 1_800_000).toISOString(),
          source: 'gemini',
          model: 'gemini-2.5-pro',
          input_tokens: n,
          total_tokens: n,
        };
      });
      for (let i = 0; i < hourly.length; i += 300) {
        const res = await ingest(t, device.token, hourly.slice(i, i + 300));
        expect(res.statusCode, res.body).toBe(200);
      }
    }
  });
  afterAll(async () => t.close());

  it('monthly, daily and heatmap stay exact', async () => {
    const month = String(perDay * BigInt(DAYS));
    expect(BigInt(month) > BigInt(Number.MAX_SAFE_INTEGER) && BigInt(month) % 2n === 1n).toBe(true);
    const zones: Record<string, string>[] = [{}, { tz: 'America/New_York' }, { tz: 'Asia/Kathmandu' }];
    for (const zone of zones) {
      const monthly = await ok<{ data: Row[] }>(t, user, 'usage-monthly', { to: '2026-10-31', months: 1, ...zone });
      expect(monthly.data[0]).toMatchObject({
        month: '2026-10',
        input_tokens: month,
        total_tokens: month,
        billable_total_tokens: month,
      });
      const daily = await ok<{ data: Row[] }>(t, user, 'usage-daily', {
        from: '2026-10-01',
        to: '2026-10-31',
        ...zone,
      });
      expect(String(daily.data.reduce((s, r) => s + BigInt(r.input_tokens as string), 0n))).toBe(month);
      const heat = await ok<{ weeks: ({ value: string } | null)[][] }>(t, user, 'usage-heatmap', {
        to: '2026-10-31',
        weeks: 5,
        ...zone,
      });
      expect(String(heat.weeks.flat().reduce((s, c) => s + BigInt(c?.value ?? '0'), 0n))).toBe(month);
    }
    const utcDaily = await ok<{ data: Row[] }>(t, user, 'usage-daily', { from: '2026-10-03', to: '2026-10-03' });
    expect(utcDaily.data[0]?.input_tokens).toBe(String(perDay));
  });
});
