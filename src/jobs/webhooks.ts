/**
 * @fileoverview The webhooks' scheduled job: `webhooks.usage-daily` queues yesterday's usage.daily
 * events every 5 minutes (each endpoint gets its day shortly after midnight in its zone; the
 * message's dedupe key keeps it to one across runs and instances). The delivery worker has a
 * timer of its own (services/webhook-delivery.ts), started by app.ts beside this schedule.
 */
import type { ScheduledJob } from './schedule.js';

export const USAGE_DAILY_EVERY_MS = 5 * 60_000;

export function webhookJobs(deps: { queueUsageDaily: () => Promise<number> }): ScheduledJob[] {
  return [
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
