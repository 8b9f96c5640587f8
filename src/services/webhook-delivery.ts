/**
 * @fileoverview The webhook delivery worker (docs/webhooks.md, "Delivery"): takes due messages
 * from the outbox, each claimed with a lease so one instance delivers it, POSTs it signed, and
 * settles it: delivered (2xx), retried later with exponential back-off, or given up 24 h after it
 * was queued. An endpoint whose failures have lasted 24 h is disabled. Times come from the clock.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import {
  claimMessage,
  disableWebhook,
  findWebhook,
  giveUpMessagesOf,
  insertAttempt,
  listDueMessages,
  markWebhookHealth,
  settleMessage,
  type DueMessage,
} from '../db/queries/webhooks.js';
import { send, signedHeaders, type SendResult } from './webhook-sender.js';

/** How long a message is retried, and how long an endpoint may fail before it is disabled. */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;
/** The wait after the first failed attempt; each further failure multiplies it by 4, up to 6 h. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 6 * 60 * 60_000;
/** A claim outlives the longest attempt (10 s time-out) with room to spare. */
const LEASE_MS = 60_000;
const BATCH = 20;

/** When the message is tried next after its `failures`-th failed attempt at `nowMs`, or null: give up. */
export function nextAttemptAt(createdAt: number, failures: number, nowMs: number): number | null {
  const deadline = createdAt + RETRY_WINDOW_MS;
  if (nowMs >= deadline) return null;
  const delay = Math.min(FIRST_RETRY_MS * 4 ** Math.max(0, failures - 1), MAX_RETRY_MS);
  return Math.min(nowMs + delay, deadline);
}

export interface DeliveryDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** WEBHOOK_ALLOW_PRIVATE: http and private addresses allowed. */
  readonly allowPrivate: boolean;
  readonly onError: (error: unknown) => void;
  /** Per-attempt time-out (10 s; tests may shorten it). */
  readonly timeoutMs?: number;
}

export class WebhookDelivery {
  private readonly holder = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private again = false;

  constructor(private readonly deps: DeliveryDeps) {}

  /** Delivers every message due now (claimed by this instance); returns how many attempts it made. */
  async deliverDue(): Promise<number> {
    let attempts = 0;
    for (;;) {
      const now = this.deps.clock.now();
      const due = await listDueMessages(this.deps.db.kysely, now, BATCH);
      const claimed: DueMessage[] = [];
      for (const m of due)
        if (await claimMessage(this.deps.db.kysely, m.id, this.holder, now, now + LEASE_MS)) claimed.push(m);
      await Promise.all(claimed.map((m) => this.attempt(m)));
      attempts += claimed.length;
      if (due.length < BATCH) return attempts;
    }
  }

  private async attempt(message: DueMessage): Promise<void> {
    const db = this.deps.db.kysely;
    const hook = await findWebhook(db, message.webhookId);
    const now = this.deps.clock.now();
    if (!hook || hook.disabledAt !== null) {
      await settleMessage(db, message.id, this.holder, { kind: 'given-up', at: now });
      return;
    }
    const headers = signedHeaders(hook.secret, message.id, now, message.body);
    const result = await send(hook.url, headers, message.body, this.deps.allowPrivate, this.deps.timeoutMs);
    await this.record(hook.id, message.id, message.eventType, now, result);
    const ok = result.error === null;
    const at = this.deps.clock.now();
    if (ok) {
      await settleMessage(db, message.id, this.holder, { kind: 'delivered', at });
      await markWebhookHealth(db, hook.id, true, at);
      return;
    }
    const next = nextAttemptAt(message.createdAt, message.attempts + 1, at);
    await settleMessage(
      db,
      message.id,
      this.holder,
      next === null ? { kind: 'given-up', at } : { kind: 'retry', nextAt: next },
    );
    await markWebhookHealth(db, hook.id, false, at);
    const since = (await findWebhook(db, hook.id))?.failingSince ?? at;
    if (at - since >= RETRY_WINDOW_MS) {
      await disableWebhook(db, hook.id, at);
      await giveUpMessagesOf(db, hook.id, at);
    }
  }

  /** Keeps an attempt for svc-webhook-deliveries. */
  async record(webhookId: string, messageId: string, eventType: string, at: number, r: SendResult): Promise<void> {
    await insertAttempt(this.deps.db.kysely, {
      id: randomUUID(),
      webhook_id: webhookId,
      message_id: messageId,
      event_type: eventType,
      attempted_at: at,
      status_code: r.statusCode,
      duration_ms: r.durationMs,
      error: r.error === null ? null : r.error.slice(0, 500),
    });
  }

  /** Delivers due messages every `everyMs` (and soon after {@link kick}) until {@link stop}. */
  start(everyMs: number): void {
    this.timer = setInterval(() => this.kick(), everyMs);
    this.timer.unref();
  }

  /** Runs a delivery pass soon (after new messages were queued), when the worker is started. */
  kick(): void {
    if (this.timer === undefined) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.deliverDue()
      .catch((error: unknown) => {
        this.deps.onError(error);
        return 0;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again && this.timer !== undefined) {
          this.again = false;
          this.kick();
        }
      });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
