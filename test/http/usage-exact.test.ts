import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest, issueDevice, signUp, TRILLION_DAY_BOUND, type TestUser, trillionBuckets } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { ok } from './usage-helpers.js';

type Row = Record<string, unknown>;

describe(`analytics sums beyond 2^53 and projects (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  const big = 1_000_000_000_000;
  const DEVICES = 10;

  beforeAll(async () => {
    t = await createTestApp({ env: TRILLION_DAY_BOUND });
    user = await signUp(t);
    const hourly = trillionBuckets();
    for (let d = 0; d < DEVICES; d += 1) {
      const device = await issueDevice(t, user, `box${d}`);
      const res = await ingest(t, device.token, hourly);
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => t.close());

  it('summary, daily, monthly, heatmap and breakdown stay exact', async () => {
    const total = 500n * BigInt(DEVICES) * BigInt(big); // 5e15 per field
    const billable = 4n * total; // claude: all four counts → 2e16 > 2^53
    expect(billable > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const range = { from: '2026-10-01', to: '2026-10-31' };
    const summary = await ok<{ totals: Row }>(t, user, 'usage-summary', range);
    expect(summary.totals).toMatchObject({
      total_tokens: String(total),
      billable_total_tokens: String(billable),
      cached_input_tokens: String(total),
    });
    const daily = await ok<{ data: Row[] }>(t, user, 'usage-daily', {
      from: '2026-09-30',
      to: '2026-10-31',
      tz: 'America/New_York',
    });
    expect(String(daily.data.reduce((s, r) => s + BigInt(r.billable_total_tokens as string), 0n))).toBe(
      String(billable),
    );
    // 500 half-hours from 1 October 00:00Z: the first ten days in UTC, 48 buckets a day.
    const utcDaily = await ok<{ data: Row[] }>(t, user, 'usage-daily', range);
    expect(utcDaily.data[0]?.total_tokens).toBe(String(48n * BigInt(DEVICES) * BigInt(big)));
    const monthly = await ok<{ data: Row[] }>(t, user, 'usage-monthly', { to: '2026-10-31', months: 1 });
    expect(monthly.data[0]).toMatchObject({ month: '2026-10', billable_total_tokens: String(billable) });
    const breakdown = await ok<{ sources: { totals: Row }[] }>(t, user, 'usage-model-breakdown', range);
    expect(breakdown.sources[0]?.totals).toMatchObject({ billable_total_tokens: String(billable) });
    expect(breakdown.sources[0]?.totals.total_cost_usd).toMatch(/^\d+\.\d{6}$/);
    const heat = await ok<{ weeks: ({ value: string } | null)[][] }>(t, user, 'usage-heatmap', {
      to: '2026-10-31',
      weeks: 5,
    });
    expect(String(heat.weeks.flat().reduce((s, c) => s + BigInt(c?.value ?? '0'), 0n))).toBe(String(billable));
  });

  it('project summary: all-time per project, billable descending, limit and source filter', async () => {
    const device = await issueDevice(t, user, 'projects');
    const at = (h: number) => new Date(Date.UTC(2026, 9, 20) + h * 1_800_000).toISOString();
    const res = await ingest(t, device.token, [
      {
        hour_start: at(0),
        source: 'codex',
        model: 'gpt-5',
        input_tokens: 10,
        output_tokens: 5,
        total_tokens: 15,
        project_key: 'acme/api',
        project_ref: 'https://github.com/acme/api',
      },
      {
        hour_start: at(1),
        source: 'claude',
        model: 'claude-sonnet-4-5',
        input_tokens: 100,
        total_tokens: 100,
        project_key: 'acme/api',
        project_ref: 'https://github.com/acme/api',
      },
      {
        hour_start: at(2),
        source: 'codex',
        model: 'gpt-5',
        input_tokens: 50,
        output_tokens: 0,
        total_tokens: 50,
        project_key: 'acme/web',
        project_ref: 'https://github.com/acme/web',
      },
      {
        hour_start: at(3),
        source: 'codex',
        model: 'gpt-5',
        input_tokens: 1,
        total_tokens: 1,
        project_key: 'acme/cli',
        project_ref: 'https://github.com/acme/cli',
      },
      {
        hour_start: at(4),
        source: 'codex',
        model: 'gpt-5',
        input_tokens: 2,
        total_tokens: 2,
        project_key: 'acme/docs',
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = await ok<{ entries: Row[]; generated_at: string; all_time: boolean }>(
      t,
      user,
      'project-usage-summary',
      {},
    );
    expect(body.all_time).toBe(true);
    expect(body.generated_at).toBe(new Date(t.clock.now()).toISOString());
    expect(body.entries).toEqual([
      {
        project_key: 'acme/api',
        project_ref: 'https://github.com/acme/api',
        total_tokens: '115',
        billable_total_tokens: '115',
      },
      {
        project_key: 'acme/web',
        project_ref: 'https://github.com/acme/web',
        total_tokens: '50',
        billable_total_tokens: '50',
      },
      { project_key: 'acme/docs', project_ref: '', total_tokens: '2', billable_total_tokens: '2' },
    ]);
    const codex = await ok<{ entries: Row[] }>(t, user, 'project-usage-summary', { source: 'codex', limit: 10 });
    expect(codex.entries.map((e) => [e.project_key, e.total_tokens])).toEqual([
      ['acme/web', '50'],
      ['acme/api', '15'],
      ['acme/docs', '2'],
      ['acme/cli', '1'],
    ]);
    const stranger = await signUp(t);
    expect((await ok<{ entries: Row[] }>(t, stranger, 'project-usage-summary', {})).entries).toEqual([]);
  });
});
