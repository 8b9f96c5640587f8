/**
 * The MCP server (docs/mcp.md) through the official SDK's own client and streamable HTTP transport,
 * against the real app listening on port 0: the tool list, each tool's structured answer equal to
 * its HTTP operation's, named periods, budget_status equal to listBudgets, a read-only API token and a JWT both accepted, other
 * credentials refused, bad input answered as a tool error, and the per-user rate limit.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

/** T0 is Sunday 2026-11-01 12:00Z; usage on both sides of local midnights, in two agents and three models. */
const BUCKETS = [
  { hour_start: '2026-10-20T10:00:00Z', source: 'codex', model: 'gpt-5', input_tokens: 5000, total_tokens: 5000 },
  {
    hour_start: '2026-10-26T23:30:00Z',
    source: 'claude',
    model: 'claude-sonnet-4-5',
    input_tokens: 1200,
    cached_input_tokens: 3400,
    output_tokens: 560,
    total_tokens: 5160,
    project_key: 'github.com/acme/app',
    project_ref: 'acme/app',
  },
  {
    hour_start: '2026-10-31T22:00:00Z',
    source: 'claude',
    model: 'claude-opus-4-1',
    input_tokens: 900_000_000_001,
    output_tokens: 70,
    total_tokens: 900_000_000_071,
    project_key: 'github.com/acme/api',
    project_ref: 'acme/api',
  },
];

const TOOLS = ['usage_summary', 'usage_daily', 'model_breakdown', 'top_projects', 'leaderboard_rank', 'budget_status'];
const MCP_LIMIT = 60;

describe(`MCP server (${engine})`, () => {
  let t: TestApp;
  let base: string;
  let user: TestUser;
  let apiToken: string;
  const clients: Client[] = [];

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'tokentally-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: bearer(token) },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  async function http(path: string, token = user.accessToken): Promise<Record<string, unknown>> {
    const res = await t.app.inject({ method: 'GET', url: path, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  function textOf(result: CallToolResult): string {
    const first = result.content[0];
    return first?.type === 'text' ? first.text : '';
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MCP_PER_MINUTE: String(MCP_LIMIT) } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
    user = await signUp(t);
    const device = await issueDevice(t, user);
    const res = await ingest(t, device.token, BUCKETS);
    expect(res.statusCode, res.body).toBe(200);
    const created = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-api-token-create',
      headers: bearer(user.accessToken),
      payload: { name: 'agent' },
    });
    expect(created.statusCode, created.body).toBe(200);
    apiToken = created.json<{ token: string }>().token;
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await t.close();
  });

  it('lists its read-only tools, each with its arguments', async () => {
    const client = await connect(apiToken);
    expect(client.getServerVersion()?.name).toBe('tokentally');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
    const summary = tools.find((tool) => tool.name === 'usage_summary');
    expect(Object.keys(summary?.inputSchema.properties ?? {})).toEqual([
      'tz',
      'period',
      'from',
      'to',
      'source',
      'model',
    ]);
  });

  it("answers each tool with its HTTP operation's body, through an API token and a JWT alike", async () => {
    const viaToken = await connect(apiToken);
    const viaJwt = await connect(user.accessToken);
    const range = { tz: 'Europe/Paris', from: '2026-10-20', to: '2026-11-01' };
    const qs = 'tz=Europe%2FParis&from=2026-10-20&to=2026-11-01';
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['usage_summary', range, `/functions/svc-usage-summary?${qs}`],
      ['usage_summary', { ...range, source: 'claude' }, `/functions/svc-usage-summary?${qs}&source=claude`],
      [
        'usage_summary',
        { ...range, model: 'claude-opus-4-1' },
        `/functions/svc-usage-summary?${qs}&model=claude-opus-4-1`,
      ],
      [
        'usage_daily',
        { ...range, tz: 'America/New_York' },
        `/functions/svc-usage-daily?${qs.replace('Europe%2FParis', 'America%2FNew_York')}`,
      ],
      ['model_breakdown', range, `/functions/svc-usage-model-breakdown?${qs}`],
      ['top_projects', { limit: 2 }, '/functions/svc-project-usage-summary?limit=2'],
    ];
    for (const [name, args, path] of cases) {
      const expected = await http(path);
      for (const client of [viaToken, viaJwt]) {
        const result = await call(client, name, args);
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(result.structuredContent, name).toEqual(expected);
      }
    }
    // The text carries the exact figures of the structured answer.
    const summary = await call(viaToken, 'usage_summary', range);
    const totals = (summary.structuredContent as { totals: Record<string, string> }).totals;
    expect(textOf(summary)).toContain(`${totals.total_tokens} tokens`);
    expect(textOf(summary)).toContain(`USD ${totals.total_cost_usd}`);
    expect(totals.total_tokens).toBe('900000010231');
    expect(textOf(await call(viaToken, 'model_breakdown', range))).toContain('claude-opus-4-1');
    expect(textOf(await call(viaToken, 'top_projects'))).toContain('acme/api');

    // The rank is getLeaderboard's own row of the caller.
    const board = await http('/functions/svc-leaderboard?period=week&metric=claude', apiToken);
    const rank = await call(viaToken, 'leaderboard_rank', { period: 'week', metric: 'claude' });
    expect(rank.structuredContent).toEqual({
      period: 'week',
      metric: 'claude',
      from: board.from,
      to: board.to,
      generated_at: board.generated_at,
      total_entries: board.total_entries,
      me: board.me,
    });
    expect(textOf(rank)).toMatch(/^Rank 1 of 1 in claude tokens/);
  });

  it('reads named periods in the zone', async () => {
    const client = await connect(apiToken);
    // Sunday 2026-11-01: in UTC this ISO week began on Monday 2026-10-26.
    const week = await call(client, 'usage_summary', { tz: 'UTC', period: 'this_week' });
    expect(week.structuredContent).toEqual(
      await http('/functions/svc-usage-summary?tz=UTC&from=2026-10-26&to=2026-11-01'),
    );
    // At 12:00Z it is already Monday 2026-11-02 in Kiritimati (UTC+14): last week is Oct 26 – Nov 1 there.
    const last = await call(client, 'usage_daily', { tz: 'Pacific/Kiritimati', period: 'last_week' });
    expect(last.structuredContent).toMatchObject({ from: '2026-10-26', to: '2026-11-01', days: 7 });
  });

  it("answers budget_status with listBudgets' body for the caller, before and after budgets are set", async () => {
    const client = await connect(apiToken);
    const none = await call(client, 'budget_status', { tz: 'Europe/Paris' });
    expect(none.isError, textOf(none)).toBeFalsy();
    expect(none.structuredContent).toEqual({ available: true, budgets: [] });
    expect(textOf(none)).toBe('No budgets are set for you or your teams.');
    for (const payload of [
      { scope: 'user', period: 'month', limit_usd: '50' },
      { scope: 'user', period: 'week', limit_tokens: '1000000', tz: 'Europe/Berlin', week_starts_on: 'mon' },
    ]) {
      const set = await t.app.inject({
        method: 'POST',
        url: '/functions/svc-budget-set',
        headers: bearer(user.accessToken),
        payload,
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    const listed = await http('/functions/svc-budgets');
    expect((listed.budgets as unknown[]).length).toBe(2);
    for (const token of [apiToken, user.accessToken]) {
      const answer = await call(await connect(token), 'budget_status', { tz: 'Europe/Paris' });
      expect(answer.isError, textOf(answer)).toBeFalsy();
      expect(answer.structuredContent).toEqual({ available: true, ...listed });
    }
    // The week's usage (the claude-opus bucket of Oct 31) passes the token budget: exact figures in the text.
    const text = textOf(await call(client, 'budget_status', { tz: 'Europe/Paris' }));
    const week = (listed.budgets as Array<Record<string, unknown>>).find((b) => b.period === 'week');
    expect(week?.state).toBe('exceeded');
    expect(text).toContain(`week budget (you): ${String(week?.spend_tokens)} of 1000000 billable tokens used`);
    expect(text).toContain('(Europe/Paris; counted in Europe/Berlin)');
    const bad = await call(client, 'budget_status', { tz: 'Nowhere/Town' });
    expect(bad.isError).toBe(true);
  });

  it('answers bad input with a tool error the agent can read, never a protocol error', async () => {
    const client = await connect(apiToken);
    const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
      ['usage_summary', { tz: 'Mars/Olympus_Mons' }, /tz/],
      ['usage_daily', { from: '2026-02-30' }, /from/],
      ['model_breakdown', { from: '2026-11-02', to: '2026-11-01' }, /from/],
      ['usage_summary', { period: 'this_week', from: '2026-10-01' }, /period or from\/to/],
      ['usage_summary', { period: 'fortnight' }, /period/],
      ['top_projects', { limit: 99 }, /limit/],
      ['budget_status', { tz: 'Nowhere/Town' }, /tz/],
      ['leaderboard_rank', { metric: 'llama' }, /metric/],
    ];
    for (const [name, args, message] of refusals) {
      const result = await call(client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
  });

  it('refuses requests without an accepted user credential', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post({})).status).toBe(401);
    expect((await post(bearer('tt_pat_' + 'x'.repeat(43)))).status).toBe(401);
    const device = await issueDevice(t, user, 'ci');
    expect((await post(bearer(device.token))).status).toBe(403);
    await expect(connect('not-a-token')).rejects.toThrow();
    expect((await fetch(`${base}/mcp`, { headers: bearer(apiToken) })).status).toBe(405);
    // A browser's MCP client (an inspector) may send its headers across origins.
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/mcp',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,mcp-protocol-version',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Mcp-Protocol-Version/);
  });

  it('limits requests per user (429 with Retry-After)', async () => {
    const other = await signUp(t);
    const post = () =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(other.accessToken) },
        body: '{}',
      });
    for (let i = 0; i < MCP_LIMIT; i++) expect((await post()).status).not.toBe(429);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
