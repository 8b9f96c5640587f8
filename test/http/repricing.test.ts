/**
 * Stored costs follow the price data in force (both engines): summary and model breakdown read
 * `usage_daily.cost_micros`, and a server that starts over costs priced by other data (or by none,
 * as after migration 0004) reprices every stored row before it serves; one whose costs match the
 * data in force leaves them alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { capturingLogger, createTestApp, engine, type TestApp } from '../helpers/app.js';

describe(`stored costs (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;

  beforeEach(async () => {
    t = await createTestApp();
    user = await signUp(t);
    const device = await issueDevice(t, user);
    const res = await ingest(t, device.token, [
      // gpt-5: 1.25 USD per million input tokens; claude-opus-4-1: 15 in, 75 out.
      { hour_start: '2026-10-30T10:00:00Z', source: 'codex', model: 'gpt-5', input_tokens: 1_000_000, total_tokens: 1_000_000 },
      { hour_start: '2026-10-30T11:00:00Z', source: 'claude', model: 'claude-opus-4-1', input_tokens: 10_000, output_tokens: 2_000, total_tokens: 12_000 },
    ]);
    expect(res.statusCode).toBe(200);
  });
  afterEach(async () => {
    await t.close();
  });

  const summaryCost = async (app = t.app) =>
    (await app.inject({ method: 'GET', url: '/functions/svc-usage-summary?from=2026-10-30&to=2026-10-30', headers: bearer(user.accessToken) })).json().totals
      .total_cost_usd as string;

  async function restart(): Promise<{ logs: string[]; close: () => Promise<void>; app: TestApp['app'] }> {
    const logs: string[] = [];
    // A second server over the same database (the first keeps it open; it closes it at the end).
    const second = await createApp({ config: t.config, db: { ...t.db, close: async () => undefined }, clock: t.clock, logger: capturingLogger(logs) });
    return { logs, close: second.close, app: second.app };
  }

  it('are what the answers sum, and are repriced at start-up when they were priced by other data', async () => {
    expect(await summaryCost()).toBe('1.550000'); // 1.25 + 0.15 + 0.15 — priced at ingest
    const breakdown = (await t.app.inject({ method: 'GET', url: '/functions/svc-usage-model-breakdown?from=2026-10-30&to=2026-10-30', headers: bearer(user.accessToken) })).json();
    expect(breakdown.sources.map((s: { source: string; totals: { total_cost_usd: string } }) => [s.source, s.totals.total_cost_usd])).toEqual([
      ['claude', '0.300000'],
      ['codex', '1.250000'],
    ]);

    // Costs priced by some other data: the answers follow what is stored …
    await t.db.kysely.updateTable('usage_daily').set({ cost_micros: 7 }).execute();
    await t.db.kysely.updateTable('read_model_state').set({ value: 'other price data' }).execute();
    expect(await summaryCost()).toBe('0.000014');

    // … until a server starts with the data in force: it reprices every stored row before serving.
    const second = await restart();
    try {
      expect(second.logs.join('')).toMatch(/repriced stored daily costs \(2 rows read, 2 changed/);
      expect(await summaryCost(second.app)).toBe('1.550000');
    } finally {
      await second.close();
    }

    // Priced by the data in force already: a start leaves them alone.
    const third = await restart();
    try {
      expect(third.logs.join('')).not.toMatch(/repriced/);
    } finally {
      await third.close();
    }
  });
});
