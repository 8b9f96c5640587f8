/**
 * @fileoverview The MCP server's tools: read-only questions about the caller's own usage, each a
 * call into the same service as its HTTP operation (usage_summary ↔ getUsageSummary, usage_daily
 * ↔ getUsageDaily, model_breakdown ↔ getUsageModelBreakdown, top_projects ↔
 * getProjectUsageSummary, leaderboard_rank ↔ getLeaderboard's `me`), answering that operation's
 * body as structured content and a few lines of text. budget_status asks an injected reader.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { invalidField } from '../domain/errors.js';
import { NAMED_PERIODS, namedPeriodRange } from '../domain/named-periods.js';
import { PROJECT_LIMITS } from '../domain/project-limit.js';
import { resolveZone, todayIn } from '../domain/zones.js';
import type { AnalyticsService } from '../services/analytics.js';
import type { LeaderboardService } from '../services/leaderboard.js';
import type { BudgetListResponse } from '../schemas/budgets.js';
import { breakdownText, budgetsText, dailyText, projectsText, rankText, summaryText } from './text.js';

/** The budgets of a user as of now: `GET /functions/svc-budgets`'s body for that user (listBudgets). */
export type BudgetStatusReader = (userId: string) => Promise<BudgetListResponse>;

export interface McpToolDeps {
  readonly analytics: Pick<AnalyticsService, 'summary' | 'daily' | 'modelBreakdown' | 'projectSummary'>;
  readonly leaderboard: Pick<LeaderboardService, 'page'>;
  readonly clock: Clock;
  /** Absent: budget_status says budgets are not available (the composition always gives one). */
  readonly budgetStatus?: BudgetStatusReader | undefined;
}

/** A tool: its name, what clients are told, its arguments and what it answers for a user. */
export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodRawShape;
  readonly run: (userId: string, args: Record<string, unknown>) => Promise<CallToolResult>;
}

const tz = z
  .string()
  .max(64)
  .optional()
  .describe('IANA time zone the days are counted in, e.g. Europe/Paris or America/New_York (default UTC)');
const period = z
  .enum(NAMED_PERIODS)
  .optional()
  .describe('a named local period (weeks start on Monday); instead of from/to. Default: the last 30 days');
const from = z.string().max(32).optional().describe('first local day, YYYY-MM-DD (default: to − 29 days)');
const to = z.string().max(32).optional().describe('last local day, inclusive, YYYY-MM-DD (default: today)');
const source = z
  .string()
  .max(64)
  .optional()
  .describe('only this agent: claude (Claude Code), codex, gemini, copilot, opencode, qwen, …');
const model = z
  .string()
  .max(128)
  .optional()
  .describe('only this model: raw name or canonical id, e.g. claude-sonnet-4-5');

const leaderboardShape = {
  period: z
    .enum(['week', 'month', 'total'])
    .optional()
    .describe('week (ISO week, Monday start, UTC), month (calendar month, UTC) or total (default week)'),
  metric: z
    .enum(['all', 'gpt', 'claude', 'other'])
    .optional()
    .describe('the model family ranked: all (default), gpt, claude or other'),
};

const rangeArgs = z.object({ tz, period, from, to, source, model });
type RangeArgs = z.infer<typeof rangeArgs>;

function ok(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** The zone's name for the text, and the query a range tool sends its service. */
function rangeQuery(args: RangeArgs, clock: Clock) {
  let { from: f, to: t } = args;
  if (args.period !== undefined) {
    if ((f ?? '').trim() !== '' || (t ?? '').trim() !== '')
      throw invalidField({ field: 'period' }, 'give either period or from/to, not both');
    const range = namedPeriodRange(args.period, todayIn(resolveZone({ tz: args.tz }), clock.now()));
    f = range.from;
    t = range.to;
  }
  const zoneName = resolveZone({ tz: args.tz }).id;
  return { zoneName, query: { tz: args.tz, from: f, to: t, source: args.source, model: args.model } };
}

export function mcpTools(deps: McpToolDeps): McpTool[] {
  const { analytics, leaderboard, clock } = deps;
  const rangeShape = rangeArgs.shape;
  const tools: McpTool[] = [
    {
      name: 'usage_summary',
      title: 'Usage summary',
      description:
        'Token totals and USD cost of your usage over a range of local days (e.g. "how much did I spend this week?"). ' +
        'Exact decimal strings: total, billable, input, cached input, output and reasoning tokens, total_cost_usd.',
      inputSchema: rangeShape,
      run: async (userId, raw) => {
        const args = rangeArgs.parse(raw);
        const { zoneName, query } = rangeQuery(args, clock);
        const body = await analytics.summary(userId, query);
        return ok(summaryText(body, zoneName, args.source), body);
      },
    },
    {
      name: 'usage_daily',
      title: 'Daily usage',
      description:
        'One row per local day over a range (zero-filled), with the range total and its USD cost. ' +
        'Days are counted in tz.',
      inputSchema: rangeShape,
      run: async (userId, raw) => {
        const args = rangeArgs.parse(raw);
        const { zoneName, query } = rangeQuery(args, clock);
        const body = await analytics.daily(userId, query);
        return ok(dailyText(body, zoneName, args.source), body);
      },
    },
    {
      name: 'model_breakdown',
      title: 'Usage by model',
      description:
        'Tokens and USD cost per agent (source) and model over a range of local days: ' +
        'e.g. "how much did I spend on Claude models this month?".',
      inputSchema: { tz, period, from, to, source },
      run: async (userId, raw) => {
        const args = rangeArgs.omit({ model: true }).parse(raw);
        const { zoneName, query } = rangeQuery(args, clock);
        const body = await analytics.modelBreakdown(userId, query);
        return ok(breakdownText(body, zoneName), body);
      },
    },
    {
      name: 'top_projects',
      title: 'Top projects',
      description: 'Your projects with the most tokens, all time (no zone: the totals are all time).',
      inputSchema: {
        limit: z
          .number()
          .int()
          .min(PROJECT_LIMITS.min)
          .max(PROJECT_LIMITS.max)
          .optional()
          .describe(`how many projects (default ${PROJECT_LIMITS.default})`),
        source,
      },
      run: async (userId, raw) => {
        const args = z.object({ limit: z.number().int().optional(), source }).parse(raw);
        const body = await analytics.projectSummary(userId, args);
        return ok(projectsText(body), body);
      },
    },
    {
      name: 'leaderboard_rank',
      title: 'Leaderboard rank',
      description:
        "Your rank on this server's leaderboard by billable tokens: this ISO week, this calendar month or all " +
        'time (UTC windows, from the latest snapshot), in all models or one family (gpt, claude, other).',
      inputSchema: leaderboardShape,
      run: async (userId, raw) => {
        const args = z.object(leaderboardShape).parse(raw);
        const page = await leaderboard.page({
          period: args.period ?? 'week',
          metric: args.metric ?? 'all',
          limit: 1,
          offset: 0,
          callerId: userId,
        });
        const { period: p, metric, from: f, to: t, generated_at, total_entries, me } = page;
        const body = { period: p, metric, from: f, to: t, generated_at, total_entries, me };
        return ok(rankText(body), body);
      },
    },
    {
      name: 'budget_status',
      title: 'Budget status',
      description:
        "Your budgets and your teams': each one's limit, what is spent in its current period (counted in the budget's own zone) and its state. tz only sets how the period bounds are shown.",
      inputSchema: { tz },
      run: async (userId, raw) => {
        const args = z.object({ tz }).parse(raw);
        const zone = resolveZone({ tz: args.tz });
        if (deps.budgetStatus === undefined)
          return ok('Budgets are not available on this server.', { available: false });
        const body = await deps.budgetStatus(userId);
        return ok(budgetsText(body, zone.id), { available: true, ...body });
      },
    },
  ];
  return tools;
}
