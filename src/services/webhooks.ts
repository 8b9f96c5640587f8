/**
 * @fileoverview Registering webhooks (docs/webhooks.md): create (the secret answered once), list,
 * delete, a test delivery, recent attempts. A user registers for themselves; a team's owners and
 * admins for the team (others get 404 for a team, as outsiders). URLs are checked for SSRF at
 * registration (https, no refused address) and again at every delivery.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import {
  countUserWebhooks,
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listAttempts,
  listDisabledWebhooks,
  listTeamWebhookTeams,
  listWebhooksOf,
  type AttemptRecord,
  type WebhookRecord,
} from '../db/queries/webhooks.js';
import { Conflict, invalidField, NotFound } from '../domain/errors.js';
import { parseZoneParam } from '../domain/zones.js';
import { InvalidParamError } from '../domain/param-error.js';
import { managesTeam, type TeamAccess } from './team-access.js';
import { eventBody, newMessageId, TEST_EVENT } from './webhook-events.js';
import type { WebhookDelivery } from './webhook-delivery.js';
import { addressProblem, send, signedHeaders, urlProblem, type SendResult } from './webhook-sender.js';

/** Endpoints one user may register (their own and their teams' together). */
export const MAX_WEBHOOKS_PER_USER = 20;
const NO_SUCH_WEBHOOK = 'No such webhook.';

export interface WebhookInput {
  url: string;
  events: string[];
  scope: 'user' | 'team';
  team_id?: string | undefined;
  description?: string | undefined;
  tz?: string | undefined;
}

export interface WebhookServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly teams: TeamAccess;
  readonly delivery: WebhookDelivery;
  readonly allowPrivate: boolean;
}

export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  private get db() {
    return this.deps.db.kysely;
  }

  async create(userId: string, input: WebhookInput): Promise<{ hook: WebhookRecord; secret: string }> {
    const scheme = urlProblem(input.url, this.deps.allowPrivate);
    if (scheme !== undefined) throw invalidField({ in: 'body', field: 'url' }, scheme);
    const where = await addressProblem(input.url, this.deps.allowPrivate);
    if (where !== undefined) throw invalidField({ in: 'body', field: 'url' }, where);
    const teamId = await this.checkScope(userId, input.scope, input.team_id);
    let tz = 'UTC';
    try {
      tz = parseZoneParam(input.tz) ?? 'UTC';
    } catch (e) {
      if (e instanceof InvalidParamError) throw invalidField({ in: 'body', field: 'tz' }, e.message);
      throw e;
    }
    if ((await countUserWebhooks(this.db, userId)) >= MAX_WEBHOOKS_PER_USER)
      throw new Conflict(`An account may register at most ${MAX_WEBHOOKS_PER_USER} webhooks; delete one first.`);
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const row = {
      id: randomUUID(),
      scope: input.scope,
      user_id: userId,
      team_id: teamId,
      url: input.url,
      events: [...new Set(input.events)].join(','),
      description: input.description ?? null,
      secret,
      tz,
      created_at: this.deps.clock.now(),
    };
    await insertWebhook(this.db, row);
    const hook = await findWebhook(this.db, row.id);
    if (!hook) throw new Error('the webhook just created is gone');
    return { hook, secret };
  }

  /** The team the hook is for (checked: owner or admin), or null for scope user. */
  private async checkScope(userId: string, scope: 'user' | 'team', teamId: string | undefined): Promise<string | null> {
    if (scope === 'user') {
      if (teamId !== undefined) throw invalidField({ in: 'body', field: 'team_id' }, 'is only for scope "team"');
      return null;
    }
    if (teamId === undefined) throw invalidField({ in: 'body', field: 'team_id' }, 'is required for scope "team"');
    if (!managesTeam(await this.deps.teams.roleIn(teamId, userId))) throw new NotFound('No such team.');
    return teamId;
  }

  /** The caller's webhooks and those of the teams they manage. */
  async list(userId: string): Promise<WebhookRecord[]> {
    const teams: string[] = [];
    for (const teamId of await listTeamWebhookTeams(this.db))
      if (managesTeam(await this.deps.teams.roleIn(teamId, userId))) teams.push(teamId);
    return listWebhooksOf(this.db, userId, teams);
  }

  /** A webhook the caller may manage, or 404. */
  private async mine(userId: string, id: string): Promise<WebhookRecord> {
    const hook = await findWebhook(this.db, id);
    if (hook) {
      if (hook.scope === 'user' && hook.userId === userId) return hook;
      if (
        hook.scope === 'team' &&
        hook.teamId !== null &&
        managesTeam(await this.deps.teams.roleIn(hook.teamId, userId))
      )
        return hook;
    }
    throw new NotFound(NO_SUCH_WEBHOOK);
  }

  async remove(userId: string, id: string): Promise<void> {
    await this.mine(userId, id);
    await deleteWebhook(this.db, id);
  }

  /** Sends a `webhook.test` event now, once (no retries), and answers how it went. */
  async test(userId: string, id: string): Promise<SendResult & { messageId: string }> {
    const hook = await this.mine(userId, id);
    const now = this.deps.clock.now();
    const messageId = newMessageId();
    const body = eventBody(TEST_EVENT, now, { webhook_id: hook.id, description: hook.description });
    const result = await send(hook.url, signedHeaders(hook.secret, messageId, now, body), body, this.deps.allowPrivate);
    await this.deps.delivery.record(hook.id, messageId, TEST_EVENT, now, result);
    return { ...result, messageId };
  }

  async deliveries(userId: string, id: string): Promise<AttemptRecord[]> {
    await this.mine(userId, id);
    return listAttempts(this.db, id, 100);
  }

  /** The caller's webhooks that were disabled after failing for 24 h (the dashboard's notice). */
  disabled(userId: string): Promise<WebhookRecord[]> {
    return listDisabledWebhooks(this.db, userId);
  }
}
