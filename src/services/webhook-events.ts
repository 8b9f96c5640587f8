/**
 * @fileoverview Webhook events and the outbox (docs/webhooks.md): the event types, their payloads,
 * and `enqueueEvent`, which writes one message per subscribed endpoint into `webhook_messages`,
 * inside the caller's transaction when it has one, so the event is queued if and only if what
 * raised it is stored. `emitTeamEvent` is what the teams code calls for member changes.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { insertMessage, listSubscribers } from '../db/queries/webhooks.js';

export const WEBHOOK_EVENTS = [
  'budget.threshold_crossed',
  'device.linked',
  'device.revoked',
  'team.member_joined',
  'team.member_left',
  'usage.daily',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The event a test delivery sends (not subscribable). */
export const TEST_EVENT = 'webhook.test';

export type EventTarget = { scope: 'user'; userId: string } | { scope: 'team'; teamId: string };

export interface BudgetCrossedData {
  budget_id: string;
  scope: 'user' | 'team';
  user_id: string | null;
  team_id: string | null;
  period: 'week' | 'month';
  period_start: string;
  period_end: string;
  threshold_percent: number;
  limit_usd: string | null;
  limit_tokens: string | null;
  spend_usd: string;
  spend_tokens: string;
}

export interface DeviceEventData {
  user_id: string;
  device_id: string;
  platform: string | null;
  at: string;
}

export interface TeamMemberEventData {
  team_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'member' | null;
  at: string;
}

/** A new message id (`webhook-id`): the same on every attempt of the message. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/** The JSON body of a delivery. */
export function eventBody(type: string, nowMs: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: new Date(nowMs).toISOString(), data });
}

/**
 * Queues `type` with `data` for every enabled endpoint of `target` that listens to it, in `db`
 * (a transaction or the database). `dedupeKey` (made unique per endpoint) keeps a scheduled event
 * to one message however many instances queue it. Returns how many messages were queued.
 */
export async function enqueueEvent(
  db: Kysely<Database>,
  target: EventTarget,
  type: WebhookEventType,
  data: unknown,
  nowMs: number,
  dedupeKey?: string,
): Promise<number> {
  const hooks = await listSubscribers(db, target, type);
  let queued = 0;
  for (const hook of hooks) {
    const inserted = await insertMessage(db, {
      id: newMessageId(),
      webhook_id: hook.id,
      event_type: type,
      body: eventBody(type, nowMs, data),
      dedupe_key: dedupeKey === undefined ? null : `${hook.id}:${dedupeKey}`,
      created_at: nowMs,
      next_attempt_at: nowMs,
    });
    if (inserted) queued++;
  }
  return queued;
}

/**
 * Queues a team member event (`team.member_joined` / `team.member_left`) for the team's endpoints;
 * the teams code calls it in the transaction that adds or removes the member.
 */
export async function emitTeamEvent(
  db: Kysely<Database>,
  type: 'team.member_joined' | 'team.member_left',
  data: Omit<TeamMemberEventData, 'at'>,
  nowMs: number,
): Promise<number> {
  const payload: TeamMemberEventData = { ...data, at: new Date(nowMs).toISOString() };
  return enqueueEvent(db, { scope: 'team', teamId: data.team_id }, type, payload, nowMs);
}

/** Queues a device event for the device owner's endpoints (in the transaction that linked or revoked it). */
export async function emitDeviceEvent(
  db: Kysely<Database>,
  type: 'device.linked' | 'device.revoked',
  data: Omit<DeviceEventData, 'at'>,
  nowMs: number,
): Promise<number> {
  const payload: DeviceEventData = { ...data, at: new Date(nowMs).toISOString() };
  return enqueueEvent(db, { scope: 'user', userId: data.user_id }, type, payload, nowMs);
}
