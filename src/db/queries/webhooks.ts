/**
 * @fileoverview Webhooks, their outbox (`webhook_messages`) and delivery attempts (migration 0022,
 * docs/webhooks.md). A message is claimed for delivery by one instance with a lease: a conditional
 * update that only one caller wins.
 */
import type { Queryable } from '../connect.js';
import type { Selectable } from 'kysely';
import type { WebhooksTable } from '../schema.js';

export interface WebhookRecord {
  id: string;
  scope: 'user' | 'team';
  userId: string;
  teamId: string | null;
  url: string;
  events: string[];
  description: string | null;
  secret: string;
  tz: string;
  createdAt: number;
  failingSince: number | null;
  disabledAt: number | null;
}

const orNull = (v: bigint | null): number | null => (v === null ? null : Number(v));

function record(r: Selectable<WebhooksTable>): WebhookRecord {
  return {
    id: r.id,
    scope: r.scope === 'team' ? 'team' : 'user',
    userId: r.user_id,
    teamId: r.team_id,
    url: r.url,
    events: r.events === '' ? [] : r.events.split(','),
    description: r.description,
    secret: r.secret,
    tz: r.tz,
    createdAt: Number(r.created_at),
    failingSince: orNull(r.failing_since),
    disabledAt: orNull(r.disabled_at),
  };
}

export async function insertWebhook(db: Queryable, row: NewWebhook): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export interface NewWebhook {
  id: string;
  scope: string;
  user_id: string;
  team_id: string | null;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  tz: string;
  created_at: number;
}

export async function findWebhook(db: Queryable, id: string): Promise<WebhookRecord | undefined> {
  const r = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  return r && record(r);
}

export async function countUserWebhooks(db: Queryable, userId: string): Promise<number> {
  const r = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<bigint | number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Webhooks a user registered for themselves, plus those of the given teams. */
export async function listWebhooksOf(
  db: Queryable,
  userId: string,
  teamIds: readonly string[],
): Promise<WebhookRecord[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'user'), eb('user_id', '=', userId)]),
        ...(teamIds.length > 0 ? [eb.and([eb('scope', '=', 'team'), eb('team_id', 'in', teamIds)])] : []),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(record);
}

/** Team webhooks (to find the teams a caller may see them for). */
export async function listTeamWebhookTeams(db: Queryable): Promise<string[]> {
  const rows = await db.selectFrom('webhooks').select('team_id').distinct().where('scope', '=', 'team').execute();
  return rows.flatMap((r) => (r.team_id === null ? [] : [r.team_id]));
}

/** Enabled webhooks listening to `eventType` for a user (scope user) or a team (scope team). */
export async function listSubscribers(
  db: Queryable,
  target: { scope: 'user'; userId: string } | { scope: 'team'; teamId: string },
  eventType: string,
): Promise<WebhookRecord[]> {
  let q = db.selectFrom('webhooks').selectAll().where('disabled_at', 'is', null).where('scope', '=', target.scope);
  q = target.scope === 'user' ? q.where('user_id', '=', target.userId) : q.where('team_id', '=', target.teamId);
  return (await q.execute()).map(record).filter((w) => w.events.includes(eventType));
}

/** Every enabled webhook listening to `eventType` (the usage.daily job). */
export async function listEnabledFor(db: Queryable, eventType: string): Promise<WebhookRecord[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('disabled_at', 'is', null)
    .where('events', 'like', `%${eventType}%`)
    .execute();
  return rows.map(record).filter((w) => w.events.includes(eventType));
}

export async function deleteWebhook(db: Queryable, id: string): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

/** Queues a message; false when its dedupe key was already queued. */
export async function insertMessage(
  db: Queryable,
  row: {
    id: string;
    webhook_id: string;
    event_type: string;
    body: string;
    dedupe_key: string | null;
    created_at: number;
    next_attempt_at: number;
  },
): Promise<boolean> {
  const r = await db
    .insertInto('webhook_messages')
    .values(row)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return BigInt(r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export interface DueMessage {
  id: string;
  webhookId: string;
  eventType: string;
  body: string;
  createdAt: number;
  attempts: number;
}

/** Messages due at `now` whose lease (if any) ran out, oldest first. */
export async function listDueMessages(db: Queryable, now: number, limit: number): Promise<DueMessage[]> {
  const rows = await db
    .selectFrom('webhook_messages')
    .select(['id', 'webhook_id', 'event_type', 'body', 'created_at', 'attempts'])
    .where('next_attempt_at', '<=', BigInt(now))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', BigInt(now))]))
    .orderBy('next_attempt_at')
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    eventType: r.event_type,
    body: r.body,
    createdAt: Number(r.created_at),
    attempts: Number(r.attempts),
  }));
}

/** Takes a due message's lease until `until`: true for exactly one of the callers that ask at once. */
export async function claimMessage(
  db: Queryable,
  id: string,
  holder: string,
  now: number,
  until: number,
): Promise<boolean> {
  const r = await db
    .updateTable('webhook_messages')
    .set({ lease_holder: holder, lease_until: until })
    .where('id', '=', id)
    .where('next_attempt_at', '<=', BigInt(now))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', BigInt(now))]))
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** The outcome of an attempt on a claimed message: delivered, retried at `nextAt`, or given up. */
export async function settleMessage(
  db: Queryable,
  id: string,
  holder: string,
  outcome: { kind: 'delivered'; at: number } | { kind: 'retry'; nextAt: number } | { kind: 'given-up'; at: number },
): Promise<void> {
  const base = db
    .updateTable('webhook_messages')
    .where('id', '=', id)
    .where('lease_holder', '=', holder)
    .set((eb) => ({ attempts: eb('attempts', '+', 1n), lease_holder: null, lease_until: null }));
  if (outcome.kind === 'delivered') await base.set({ next_attempt_at: null, delivered_at: outcome.at }).execute();
  else if (outcome.kind === 'retry') await base.set({ next_attempt_at: outcome.nextAt }).execute();
  else await base.set({ next_attempt_at: null, given_up_at: outcome.at }).execute();
}

/** Gives up every pending message of a webhook (it was disabled). */
export async function giveUpMessagesOf(db: Queryable, webhookId: string, now: number): Promise<void> {
  await db
    .updateTable('webhook_messages')
    .set({ next_attempt_at: null, given_up_at: now })
    .where('webhook_id', '=', webhookId)
    .where('next_attempt_at', 'is not', null)
    .execute();
}

export async function insertAttempt(
  db: Queryable,
  row: {
    id: string;
    webhook_id: string;
    message_id: string;
    event_type: string;
    attempted_at: number;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
  },
): Promise<void> {
  await db.insertInto('webhook_attempts').values(row).execute();
}

export interface AttemptRecord {
  messageId: string;
  eventType: string;
  attemptedAt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export async function listAttempts(db: Queryable, webhookId: string, limit: number): Promise<AttemptRecord[]> {
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    messageId: r.message_id,
    eventType: r.event_type,
    attemptedAt: Number(r.attempted_at),
    statusCode: orNull(r.status_code),
    durationMs: Number(r.duration_ms),
    error: r.error,
  }));
}

/** Records a webhook's success (clears its failing run) or failure (starts one if none). */
export async function markWebhookHealth(db: Queryable, id: string, ok: boolean, now: number): Promise<void> {
  if (ok) await db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', id).execute();
  else
    await db
      .updateTable('webhooks')
      .set({ failing_since: now })
      .where('id', '=', id)
      .where('failing_since', 'is', null)
      .execute();
}

export async function disableWebhook(db: Queryable, id: string, now: number): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ disabled_at: now })
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .execute();
}

/** A user's disabled webhooks (the dashboard's notice). */
export async function listDisabledWebhooks(db: Queryable, userId: string): Promise<WebhookRecord[]> {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('disabled_at', 'is not', null)
    .execute();
  return rows.map(record);
}

/** Whether a message with this dedupe key was queued already. */
export async function dedupeKeyQueued(db: Queryable, dedupeKey: string): Promise<boolean> {
  const r = await db.selectFrom('webhook_messages').select('id').where('dedupe_key', '=', dedupeKey).executeTakeFirst();
  return r !== undefined;
}

/** Deletes settled messages queued before `before` and attempts made before it; returns how many of each went. */
export async function purgeWebhookHistory(
  db: Queryable,
  before: number,
): Promise<{ messages: number; attempts: number }> {
  const m = await db
    .deleteFrom('webhook_messages')
    .where('next_attempt_at', 'is', null)
    .where('created_at', '<', BigInt(before))
    .executeTakeFirst();
  const a = await db.deleteFrom('webhook_attempts').where('attempted_at', '<', BigInt(before)).executeTakeFirst();
  return { messages: Number(m.numDeletedRows), attempts: Number(a.numDeletedRows) };
}
