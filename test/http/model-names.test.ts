/** The model breakdown keeps every model under its own name and says what priced it (docs/pricing.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

interface Model {
  model_id: string;
  model: string;
  priced_as?: string;
  totals: { total_tokens: string; total_cost_usd: string };
}

describe(`model names in answers (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t);
    const device = await issueDevice(t, user);
    const at = (i: number) => new Date(Date.UTC(2026, 9, 20, 10) + i * 1_800_000).toISOString();
    const rows = [
      ['codex', 'gpt-5.2-codex', 1000],
      ['codex', 'gpt-5.2', 100],
      ['codex', 'gpt-5.1-codex-max', 500],
      ['codex', 'gpt-5.1-codex', 400],
      ['claude', 'claude-sonnet-4-5-20250929', 300],
      ['opencode', 'anthropic/claude-sonnet-4-5', 200],
      ['gemini', 'gemini-2.5-pro', 50],
      ['qwen', 'qwen3-coder-plus', 30],
      ['kimi', 'kimi-k2-thinking', 20],
    ] as const;
    const res = await ingest(
      t,
      device.token,
      rows.map(([source, model, n], i) => ({ hour_start: at(i), source, model, input_tokens: n, total_tokens: n })),
    );
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => t.close());

  it('keeps gpt-5.2-codex apart from gpt-5.2 and says priced_as', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/functions/svc-usage-model-breakdown?from=2026-10-01&to=2026-10-31',
      headers: bearer(user.accessToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ sources: { source: string; models: Model[] }[] }>();
    const bySource = Object.fromEntries(
      body.sources.map((s) => [
        s.source,
        s.models.map((m) => ({ id: m.model_id, priced_as: m.priced_as, tokens: m.totals.total_tokens })),
      ]),
    );
    expect(bySource.codex).toEqual([
      { id: 'gpt-5.2-codex', priced_as: 'gpt-5.2', tokens: '1000' },
      { id: 'gpt-5.1-codex-max', priced_as: 'gpt-5.1', tokens: '500' },
      { id: 'gpt-5.1-codex', priced_as: 'gpt-5.1', tokens: '400' },
      { id: 'gpt-5.2', priced_as: undefined, tokens: '100' },
    ]);
    expect(bySource.claude).toEqual([{ id: 'claude-sonnet-4-5', priced_as: undefined, tokens: '300' }]);
    expect(bySource.opencode).toEqual([{ id: 'claude-sonnet-4-5', priced_as: undefined, tokens: '200' }]);
    expect(bySource.gemini).toEqual([{ id: 'gemini-2.5-pro', priced_as: undefined, tokens: '50' }]);
    // Unknown to the price database: the default profile prices it, and the answer says which.
    expect(bySource.qwen).toEqual([{ id: 'qwen3-coder-plus', priced_as: 'gpt-5.2-codex', tokens: '30' }]);
    expect(bySource.kimi).toEqual([{ id: 'kimi-k2-thinking', priced_as: undefined, tokens: '20' }]);
  });

  it('a model filter selects one model, not the model that prices it', async () => {
    const get = async (model: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/functions/svc-usage-summary?from=2026-10-01&to=2026-10-31&model=${encodeURIComponent(model)}`,
        headers: bearer(user.accessToken),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ totals: { total_tokens: string }; model_id: string }>();
    };
    expect(await get('gpt-5.2')).toMatchObject({ model_id: 'gpt-5.2', totals: { total_tokens: '100' } });
    expect(await get('gpt-5.2-codex')).toMatchObject({ model_id: 'gpt-5.2-codex', totals: { total_tokens: '1000' } });
    expect(await get('Claude-Sonnet-4.5')).toMatchObject({
      model_id: 'claude-sonnet-4-5',
      totals: { total_tokens: '500' },
    });
  });
});
