/**
 * @fileoverview Budgets, alerts and webhooks, wired (used by app.ts only): the services, the check
 * after uploads, the delivery worker (started with the scheduled jobs) and the usage.daily job,
 * and their routes. `teams` answers who is in which team.
 */
import type { Logger } from 'pino';
import type { App } from './app-types.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { purgeWebhookHistory } from './db/queries/webhooks.js';
import { webhookJobs } from './jobs/webhooks.js';
import type { ScheduledJob } from './jobs/schedule.js';
import { describeMailError, type Mailer } from './mail/mailer.js';
import { registerBudgetRoutes } from './routes/budgets.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { BudgetAlerts } from './services/budget-alerts.js';
import { BudgetService } from './services/budgets.js';
import type { PriceService, PriceSource } from './pricing/index.js';
import type { TeamAccess } from './services/team-access.js';
import { queueUsageDaily } from './services/usage-daily.js';
import { WebhookDelivery } from './services/webhook-delivery.js';
import { WebhookService } from './services/webhooks.js';

/** How often the delivery worker looks for due messages (it also runs right after alerts queue some). */
export const DELIVERY_POLL_MS = 2_000;
/** Settled webhook messages and delivery attempts are kept this long. */
const HISTORY_DAYS = 30;

export interface NotificationDeps {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
  prices: PriceSource<PriceService>;
  teams: TeamAccess;
  /** The app's one mailer (SMTP_URL), or none. */
  mailer: Mailer | undefined;
}

export interface Notifications {
  readonly budgets: BudgetService;
  readonly alerts: BudgetAlerts;
  readonly webhooks: WebhookService;
  readonly delivery: WebhookDelivery;
  readonly jobs: ScheduledJob[];
  /** Queues yesterday's usage.daily events now (what the scheduled job runs). */
  queueUsageDaily(): Promise<number>;
  /** Told after an upload changed a user's stored usage. */
  usageChanged(userId: string): void;
  /** Registers the routes; starts the delivery worker when `startWorker`. */
  register(app: App, startWorker: boolean): void;
  close(): Promise<void>;
}

export function createNotifications(deps: NotificationDeps): Notifications {
  const { db, clock, config, logger, prices, teams } = deps;
  const allowPrivate = config.webhookAllowPrivate;
  const delivery = new WebhookDelivery({
    db,
    clock,
    allowPrivate,
    onError: (error) => logger.error({ err: error }, 'webhooks: a delivery pass failed; it runs again shortly'),
  });
  const budgets = new BudgetService({ db, clock, prices, teams });
  const webhooks = new WebhookService({ db, clock, teams, delivery, allowPrivate });
  const { mailer } = deps;
  const { mail } = config;
  const alerts = new BudgetAlerts({
    db,
    clock,
    budgets,
    teams,
    mailer,
    publicUrl: config.publicUrl,
    onQueued: () => delivery.kick(),
    onError: (error) =>
      logger.error(
        mail && error instanceof Error && 'responseCode' in error
          ? `budgets: an alert e-mail was not sent (${describeMailError(error, mail.smtpUrl)})`
          : `budgets: checking budgets after an upload failed (${error instanceof Error ? error.message : String(error)})`,
      ),
  });
  const queue = () => queueUsageDaily({ db, clock, prices, teams });
  return {
    budgets,
    alerts,
    webhooks,
    delivery,
    jobs: webhookJobs({
      queueUsageDaily: async () => {
        const queued = await queue();
        if (queued > 0) delivery.kick();
        return queued;
      },
      purgeHistory: () => purgeWebhookHistory(db.kysely, clock.now() - HISTORY_DAYS * 86_400_000),
    }),
    queueUsageDaily: queue,
    usageChanged: (userId) => alerts.usageChanged(userId),
    register(app, startWorker) {
      registerBudgetRoutes(app, { budgets, webhooks });
      registerWebhookRoutes(app, { webhooks });
      if (startWorker) delivery.start(DELIVERY_POLL_MS);
    },
    async close() {
      await alerts.close();
      await delivery.stop();
    },
  };
}
