/**
 * McpEndpoint (src/mcp/server.ts) without a database: an injected budget reader is answered as
 * budget_status, its refusals as tool errors, and a tool's unexpected failure is reported to the
 * server and answered as a tool error that tells the agent nothing of it.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { McpEndpoint, type McpEndpointDeps } from '../../src/mcp/server.js';
import type { BudgetStatusReader } from '../../src/mcp/tools.js';

const T0 = Date.UTC(2026, 10, 1, 12);

function endpoint(budgetStatus: BudgetStatusReader | undefined, failures: unknown[]) {
  const unused = () => Promise.reject(new Error('not used here'));
  const deps: McpEndpointDeps = {
    analytics: {
      summary: () => Promise.reject(new Error('secret database detail')),
      daily: unused,
      modelBreakdown: unused,
      projectSummary: unused,
    },
    leaderboard: { page: unused },
    clock: new ManualClock(T0),
    version: '0.0.0-test',
    budgetStatus,
    onToolFailure: (_tool, error) => failures.push(error),
  };
  return new McpEndpoint(deps);
}

interface ToolAnswer {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

async function callTool(mcp: McpEndpoint, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const request = new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } };
  const response = await mcp.answer(request, body, 'user-1');
  expect(response.status).toBe(200);
  const message = (await response.json()) as { id: number; result: ToolAnswer };
  expect(message.id).toBe(7);
  return message.result;
}

describe('McpEndpoint', () => {
  it("answers budget_status from the injected reader with the caller's budgets, the zone only showing the bounds", async () => {
    const asked: unknown[] = [];
    const budget = {
      id: '00000000-0000-4000-8000-000000000001',
      scope: 'user' as const,
      team_id: null,
      period: 'month' as const,
      limit_usd: '50.000000',
      limit_tokens: null,
      thresholds: [80, 100],
      tz: 'UTC',
      week_starts_on: 'mon',
      period_start: '2026-11-01T00:00:00.000Z',
      period_end: '2026-12-01T00:00:00.000Z',
      spend_usd: '12.500000',
      spend_tokens: '1234',
      share: 25,
      state: 'ok' as const,
    };
    const reader: BudgetStatusReader = async (userId) => {
      asked.push(userId);
      return { budgets: [budget] };
    };
    const mcp = endpoint(reader, []);
    const answer = await callTool(mcp, 'budget_status', { tz: 'Europe/Paris' });
    expect(answer.isError).toBeFalsy();
    expect(answer.content[0]?.text).toBe(
      '1 budget:\nmonth budget (you): USD 12.500000 of USD 50.000000 spent (25%, ok); ' +
        'period 2026-11-01 01:00 to 2026-12-01 01:00 (Europe/Paris; counted in UTC).',
    );
    expect(answer.structuredContent).toEqual({ available: true, budgets: [budget] });
    expect(asked).toEqual(['user-1']);
    const refused = await callTool(mcp, 'budget_status', { tz: 'Nowhere/Town' });
    expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/Nowhere\/Town/) }] });
    expect(asked).toEqual(['user-1']);
  });

  it('reports an unexpected failure and tells the agent only that the tool failed', async () => {
    const failures: unknown[] = [];
    const answer = await callTool(endpoint(undefined, failures), 'usage_summary', { tz: 'UTC' });
    expect(answer.isError).toBe(true);
    expect(answer.content[0]?.text).toBe('usage_summary failed on the server; try again later.');
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toMatch(/secret database detail/);
  });
});
