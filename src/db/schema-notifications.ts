/**
 * @fileoverview The budget and webhook tables, as Kysely sees them (part of db/schema.ts; migration
 * 0022, docs/budgets.md and docs/webhooks.md).
 */
import type { ColumnType } from 'kysely';
import type { Int, NullableInt } from './schema.js';

export interface BudgetsTable {
  id: string;
  /** `user` or `team`. */
  scope: string;
  /** `user:<id>` or `team:<id>`: one budget per (owner, period). */
  scope_key: string;
  /** Who set it (the owner of a user budget). */
  user_id: string;
  team_id: string | null;
  /** `week` or `month`. */
  period: string;
  limit_micros: NullableInt;
  limit_tokens: NullableInt;
  /** Percentages, comma-separated, ascending. */
  thresholds: string;
  tz: string;
  /** `mon` or `sun`. */
  week_starts_on: string;
  created_at: Int;
  updated_at: Int;
}

export interface BudgetAlertsTable {
  id: string;
  budget_id: string;
  period_start: Int;
  threshold: Int;
  /** The spend (micro-dollars or billable tokens, the budget's unit) when it was raised. */
  spend: Int;
  raised_at: Int;
  dismissed_at: NullableInt;
}

export interface WebhooksTable {
  id: string;
  scope: string;
  user_id: string;
  team_id: string | null;
  url: string;
  /** Event types, comma-separated. */
  events: string;
  description: string | null;
  secret: string;
  /** The zone usage.daily's days are in. */
  tz: string;
  created_at: Int;
  /** First failure of the current run of failures; null after a success. */
  failing_since: NullableInt;
  disabled_at: NullableInt;
}

export interface WebhookMessagesTable {
  /** The `webhook-id` header, the same on every attempt. */
  id: string;
  webhook_id: string;
  event_type: string;
  body: string;
  dedupe_key: string | null;
  created_at: Int;
  attempts: ColumnType<bigint, bigint | number | undefined, bigint | number>;
  /** Null once delivered or given up. */
  next_attempt_at: NullableInt;
  lease_holder: string | null;
  lease_until: NullableInt;
  delivered_at: NullableInt;
  given_up_at: NullableInt;
}

export interface WebhookAttemptsTable {
  id: string;
  webhook_id: string;
  message_id: string;
  event_type: string;
  attempted_at: Int;
  status_code: NullableInt;
  duration_ms: Int;
  error: string | null;
}
