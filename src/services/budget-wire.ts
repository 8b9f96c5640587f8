/**
 * @fileoverview A budget's status as the budget operations answer it (BudgetEntry): exact decimal
 * strings for USD and tokens. Shared by the routes (`listBudgets`, `setBudget`) and the MCP
 * server's `budget_status`, so both answer the same body.
 */
import { formatMicros } from '../pricing/index.js';
import type { BudgetEntry, BudgetListResponse } from '../schemas/budgets.js';
import type { BudgetService, BudgetStatus } from './budgets.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function budgetWire(s: BudgetStatus): BudgetEntry {
  const b = s.budget;
  return {
    id: b.id,
    scope: b.scope,
    team_id: b.teamId,
    period: b.period,
    limit_usd: b.limitMicros === null ? null : formatMicros(b.limitMicros),
    limit_tokens: b.limitTokens === null ? null : b.limitTokens.toString(),
    thresholds: s.thresholds,
    tz: b.tz,
    week_starts_on: b.weekStartsOn,
    period_start: iso(s.periodStartMs),
    period_end: iso(s.periodEndMs),
    spend_usd: formatMicros(s.spendMicros),
    spend_tokens: s.spendTokens.toString(),
    share: s.share,
    state: s.state,
  };
}

/** `GET /functions/svc-budgets`'s body: the user's and their teams' budgets, with the current period's spend. */
export async function budgetList(budgets: Pick<BudgetService, 'list'>, userId: string): Promise<BudgetListResponse> {
  return { budgets: (await budgets.list(userId)).map(budgetWire) };
}
