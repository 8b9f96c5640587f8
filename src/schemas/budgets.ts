/** @fileoverview Budgets and their alerts: setBudget, listBudgets, deleteBudget, listBudgetAlerts, dismissBudgetAlert (docs/budgets.md). */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from './common.js';

const Scope = Type.Union([Type.Literal('user'), Type.Literal('team')]);
const Period = Type.Union([Type.Literal('week'), Type.Literal('month')]);
const TeamId = Type.String({ minLength: 1, maxLength: 100 });

export const BudgetSetRequest = Type.Object(
  {
    scope: Scope,
    team_id: Type.Optional(TeamId),
    period: Period,
    limit_usd: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,12}(\\.[0-9]{1,6})?$',
        maxLength: 19,
        description: 'USD, e.g. "250" or "99.50"',
      }),
    ),
    limit_tokens: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,19}$', maxLength: 19, description: 'billable tokens, a decimal string' }),
    ),
    thresholds: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 1000 }), {
        minItems: 1,
        maxItems: 10,
        description: 'per cent of the limit (default 50, 80, 100)',
      }),
    ),
    tz: Type.Optional(Type.String({ maxLength: 64, description: 'IANA zone the period is measured in (default UTC)' })),
    week_starts_on: Type.Optional(
      Type.Union([Type.Literal('mon'), Type.Literal('sun')], { description: 'default mon' }),
    ),
  },
  { additionalProperties: false },
);
export type BudgetSetRequest = Static<typeof BudgetSetRequest>;

export const BudgetEntry = Type.Object({
  id: Uuid,
  scope: Scope,
  team_id: Type.Union([Type.String(), Type.Null()]),
  period: Period,
  limit_usd: Type.Union([Type.String(), Type.Null()]),
  limit_tokens: Type.Union([Type.String(), Type.Null()]),
  thresholds: Type.Array(Type.Integer()),
  tz: Type.String(),
  week_starts_on: Type.String(),
  period_start: DateTime,
  period_end: DateTime,
  spend_usd: Type.String(),
  spend_tokens: Type.String({ description: 'billable tokens' }),
  share: Type.Number({ description: 'per cent of the limit used (two decimals)' }),
  state: Type.Union([Type.Literal('ok'), Type.Literal('warning'), Type.Literal('exceeded')]),
});
export type BudgetEntry = Static<typeof BudgetEntry>;

export const BudgetListResponse = Type.Object({ budgets: Type.Array(BudgetEntry) });
export type BudgetListResponse = Static<typeof BudgetListResponse>;

export const IdRequest = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdRequest = Static<typeof IdRequest>;

export const DeletedResponse = Type.Object({ deleted: Type.Literal(true), id: Uuid });
export type DeletedResponse = Static<typeof DeletedResponse>;

export const BudgetAlertEntry = Type.Object({
  id: Uuid,
  budget_id: Uuid,
  scope: Scope,
  team_id: Type.Union([Type.String(), Type.Null()]),
  period: Period,
  period_start: DateTime,
  threshold_percent: Type.Integer(),
  spend: Type.String({ description: "the spend when raised, in the budget's unit (USD or billable tokens)" }),
  unit: Type.Union([Type.Literal('usd'), Type.Literal('tokens')]),
  raised_at: DateTime,
});
export type BudgetAlertEntry = Static<typeof BudgetAlertEntry>;

export const DisabledWebhookEntry = Type.Object({ id: Uuid, url: Type.String(), disabled_at: DateTime });

export const BudgetAlertListResponse = Type.Object({
  alerts: Type.Array(BudgetAlertEntry),
  disabled_webhooks: Type.Array(DisabledWebhookEntry, { description: 'endpoints disabled after failing for 24 h' }),
});
export type BudgetAlertListResponse = Static<typeof BudgetAlertListResponse>;

export const DismissedResponse = Type.Object({ dismissed: Type.Literal(true), id: Uuid });
export type DismissedResponse = Static<typeof DismissedResponse>;
