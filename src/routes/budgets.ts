/**
 * @fileoverview setBudget, listBudgets, deleteBudget, listBudgetAlerts, dismissBudgetAlert: a user's
 * and their teams' budgets and the alerts they raised (docs/budgets.md).
 */
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import {
  BudgetAlertListResponse,
  BudgetListResponse,
  BudgetSetRequest,
  BudgetEntry,
  DeletedResponse,
  DismissedResponse,
  IdRequest,
} from '../schemas/budgets.js';
import { responses } from '../schemas/common.js';
import { formatMicros } from '../pricing/index.js';
import { budgetList, budgetWire } from '../services/budget-wire.js';
import type { BudgetService } from '../services/budgets.js';
import type { WebhookService } from '../services/webhooks.js';
import { operation } from './operation.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function registerBudgetRoutes(app: App, deps: { budgets: BudgetService; webhooks: WebhookService }): void {
  const { budgets, webhooks } = deps;
  const user = { roles: ['user' as const] };

  app.post(
    '/functions/svc-budget-set',
    operation(
      {
        operationId: 'setBudget',
        summary: 'Set a budget (one per owner and period)',
        description:
          'scope "user": the caller\'s own usage; scope "team": the team\'s members together (owners and admins only; 404 for others). Exactly one of limit_usd and limit_tokens. Setting it again for the same owner and period replaces its limit, thresholds and zone.',
        tags: ['budgets'],
        access: user,
      },
      { body: BudgetSetRequest, response: responses(BudgetEntry, 400, 401, 403, 404, 415) },
    ),
    async (request) => budgetWire(await budgets.set(principalOf(request, 'user').userId, request.body)),
  );

  app.get(
    '/functions/svc-budgets',
    operation(
      {
        operationId: 'listBudgets',
        summary: "The caller's and their teams' budgets, with the current period's spend",
        tags: ['budgets'],
        access: user,
      },
      { response: responses(BudgetListResponse, 401, 403) },
    ),
    async (request) => budgetList(budgets, principalOf(request, 'user').userId),
  );

  app.post(
    '/functions/svc-budget-delete',
    operation(
      { operationId: 'deleteBudget', summary: 'Delete a budget (and its alerts)', tags: ['budgets'], access: user },
      { body: IdRequest, response: responses(DeletedResponse, 400, 401, 403, 404, 415) },
    ),
    async (request) => {
      await budgets.remove(principalOf(request, 'user').userId, request.body.id);
      return { deleted: true as const, id: request.body.id };
    },
  );

  app.get(
    '/functions/svc-budget-alerts',
    operation(
      {
        operationId: 'listBudgetAlerts',
        summary: 'Budget alerts not dismissed, and webhooks disabled after failing (the dashboard banner)',
        tags: ['budgets'],
        access: user,
      },
      { response: responses(BudgetAlertListResponse, 401, 403) },
    ),
    async (request): Promise<BudgetAlertListResponse> => {
      const userId = principalOf(request, 'user').userId;
      const open = await budgets.alerts(userId);
      const disabled = await webhooks.disabled(userId);
      return {
        alerts: open.map(({ alert, budget }) => ({
          id: alert.id,
          budget_id: budget.id,
          scope: budget.scope,
          team_id: budget.teamId,
          period: budget.period,
          period_start: iso(alert.periodStart),
          threshold_percent: alert.threshold,
          spend: budget.limitMicros === null ? alert.spend.toString() : formatMicros(alert.spend),
          unit: budget.limitMicros === null ? 'tokens' : 'usd',
          raised_at: iso(alert.raisedAt),
        })),
        disabled_webhooks: disabled.map((w) => ({ id: w.id, url: w.url, disabled_at: iso(w.disabledAt ?? 0) })),
      };
    },
  );

  app.post(
    '/functions/svc-budget-alert-dismiss',
    operation(
      { operationId: 'dismissBudgetAlert', summary: 'Dismiss a budget alert', tags: ['budgets'], access: user },
      { body: IdRequest, response: responses(DismissedResponse, 400, 401, 403, 404, 415) },
    ),
    async (request) => {
      await budgets.dismiss(principalOf(request, 'user').userId, request.body.id);
      return { dismissed: true as const, id: request.body.id };
    },
  );
}
