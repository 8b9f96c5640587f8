/**
 * @fileoverview Migration 0022: budgets with their alerts, and webhooks with their outbox
 * (docs/budgets.md, docs/webhooks.md).
 *
 * - `budgets`: a spending limit of a user (scope `user`) or a team (scope `team`), per `week` or
 *   `month` in the zone it is measured in; one per (owner, period), `scope_key` naming the owner.
 * - `budget_alerts`: one row per (budget, period start, threshold), unique, so however many
 *   uploads, processes or instances cross a threshold at once, one alert is raised.
 * - `webhooks`: registered endpoints with their signing secret (kept as is: it signs every delivery).
 * - `webhook_messages`: the outbox, one row per event and endpoint, written in the transaction that
 *   raised it; `next_attempt_at` is null once delivered or given up; the lease columns let one
 *   instance deliver it; `dedupe_key` (unique) keeps a scheduled event (usage.daily) to one.
 * - `webhook_attempts`: each delivery attempt (time, status code, duration, error).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('budgets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('scope_key', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('team_id', 'text')
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('limit_micros', 'bigint')
        .addColumn('limit_tokens', 'bigint')
        .addColumn('thresholds', 'text', (c) => c.notNull())
        .addColumn('tz', 'text', (c) => c.notNull())
        .addColumn('week_starts_on', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('budgets_scope_period')
        .on('budgets')
        .columns(['scope_key', 'period'])
        .unique()
        .execute();
      await db.schema.createIndex('budgets_user').on('budgets').column('user_id').execute();
      await db.schema.createIndex('budgets_team').on('budgets').column('team_id').execute();
      await db.schema
        .createTable('budget_alerts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('budget_id', 'text', (c) => c.notNull().references('budgets.id').onDelete('cascade'))
        .addColumn('period_start', 'bigint', (c) => c.notNull())
        .addColumn('threshold', 'bigint', (c) => c.notNull())
        .addColumn('spend', 'bigint', (c) => c.notNull())
        .addColumn('raised_at', 'bigint', (c) => c.notNull())
        .addColumn('dismissed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('budget_alerts_once')
        .on('budget_alerts')
        .columns(['budget_id', 'period_start', 'threshold'])
        .unique()
        .execute();
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('team_id', 'text')
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('tz', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('failing_since', 'bigint')
        .addColumn('disabled_at', 'bigint')
        .execute();
      await db.schema.createIndex('webhooks_user').on('webhooks').column('user_id').execute();
      await db.schema.createIndex('webhooks_team').on('webhooks').column('team_id').execute();
      await db.schema
        .createTable('webhook_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('dedupe_key', 'text', (c) => c.unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint')
        .addColumn('lease_holder', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('delivered_at', 'bigint')
        .addColumn('given_up_at', 'bigint')
        .execute();
      await db.schema.createIndex('webhook_messages_due').on('webhook_messages').column('next_attempt_at').execute();
      await db.schema.createIndex('webhook_messages_hook').on('webhook_messages').column('webhook_id').execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('attempted_at', 'bigint', (c) => c.notNull())
        .addColumn('status_code', 'bigint')
        .addColumn('duration_ms', 'bigint', (c) => c.notNull())
        .addColumn('error', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_attempts_hook')
        .on('webhook_attempts')
        .columns(['webhook_id', 'attempted_at'])
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('webhook_attempts').ifExists().execute();
      await db.schema.dropTable('webhook_messages').ifExists().execute();
      await db.schema.dropTable('webhooks').ifExists().execute();
      await db.schema.dropTable('budget_alerts').ifExists().execute();
      await db.schema.dropTable('budgets').ifExists().execute();
    },
  };
}
