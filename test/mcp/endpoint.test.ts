/**
 * McpEndpoint (src/mcp/server.ts) without a database: an injected budget reader is answered as
 * budget_status, its refusals as tool errors, and a tool's unexpected failure is reported to the
 * server and answered as a tool error that tells the agent nothing of it.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { invalidField } from '../../src/domain/errors.js';
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
  it("answers budget_status from the injected reader, with the caller's id and zone", async () => {
    const asked: unknown[] = [];
    const reader: BudgetStatusReader = async (userId, query) => {
      asked.push([userId, query]);
      if (query.tz === 'Nowhere/Town')
        throw invalidField({ field: 'tz' }, 'tz "Nowhere/Town" is not a known IANA time zone');
      return {
        text: 'Monthly: USD 12.500000 of USD 50.000000 spent.',
        structured: { budgets: [{ spent_usd: '12.500000' }] },
      };
    };
    const mcp = endpoint(reader, []);
    const answer = await callTool(mcp, 'budget_status', { tz: 'Europe/Paris' });
    expect(answer.isError).toBeFalsy();
    expect(answer.content[0]?.text).toBe('Monthly: USD 12.500000 of USD 50.000000 spent.');
    expect(answer.structuredContent).toEqual({ available: true, budgets: [{ spent_usd: '12.500000' }] });
    expect(asked).toEqual([['user-1', { tz: 'Europe/Paris' }]]);
    const refused = await callTool(mcp, 'budget_status', { tz: 'Nowhere/Town' });
    expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/Nowhere\/Town/) }] });
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
