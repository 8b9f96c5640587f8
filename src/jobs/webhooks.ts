/**
 * @fileoverview The webhooks' scheduled jobs: `webhooks.retention` deletes settled messages and
 * attempts after 30 days; `webhooks.usage-daily` queues yesterday's usage.daily
 * events every 5 minutes (each endpoint gets its day shortly after midnight in its zone; the
 * message's dedupe key keeps it to one across runs and instances). The delivery worker has a
 * timer of its own (services/webhook-delivery.ts), started by app.ts beside this schedule.
 */
import type { ScheduledJob } from './schedule.js';

export const USAGE_DAILY_EVERY_MS = 5 * 60_000;

export interface WebhookJobDeps {
  queueUsageDaily: () => Promise<number>;
  /** Deletes delivered or given-up messages, and attempts, older than 30 days. */
  purgeHistory: () => Promise<{ messages: number; attempts: number }>;
}

export function webhookJobs(deps: WebhookJobDeps): ScheduledJob[] {
  return [
    {
      name: 'webhooks.retention',
      firstRunAfterMs: 7 * 60_000,
      everyMs: 24 * 60 * 60_000,
      run: async () => {
        const r = await deps.purgeHistory();
        return {
          summary: `deleted ${r.messages} settled webhook messages and ${r.attempts} delivery attempts older than 30 days`,
          details: { ...r },
        };
      },
    },
    {
      name: 'webhooks.usage-daily',
      firstRunAfterMs: 30_000,
      everyMs: USAGE_DAILY_EVERY_MS,
      run: async () => {
        const queued = await deps.queueUsageDaily();
        return { summary: `queued ${queued} usage.daily events`, details: { queued } };
      },
    },
  ];
}
