/**
 * @fileoverview createWebhook, listWebhooks, deleteWebhook, testWebhook, listWebhookDeliveries
 * (docs/webhooks.md).
 */
import type { App } from '../app-types.js';
import type { WebhookRecord } from '../db/queries/webhooks.js';
import { principalOf } from '../http/access.js';
import { DeletedResponse, IdRequest } from '../schemas/budgets.js';
import { responses } from '../schemas/common.js';
import {
  WebhookCreateRequest,
  WebhookCreateResponse,
  WebhookDeliveriesQuery,
  WebhookDeliveriesResponse,
  WebhookListResponse,
  WebhookTestResponse,
  type WebhookEntry,
} from '../schemas/webhooks.js';
import type { WebhookService } from '../services/webhooks.js';
import { operation } from './operation.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function hookWire(w: WebhookRecord): WebhookEntry {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    scope: w.scope,
    team_id: w.teamId,
    description: w.description,
    tz: w.tz,
    created_at: new Date(w.createdAt).toISOString(),
    failing_since: iso(w.failingSince),
    disabled_at: iso(w.disabledAt),
  };
}

export function registerWebhookRoutes(app: App, deps: { webhooks: WebhookService }): void {
  const { webhooks } = deps;
  const user = { roles: ['user' as const] };

  app.post(
    '/functions/svc-webhook-create',
    operation(
      {
        operationId: 'createWebhook',
        summary: 'Register a webhook endpoint',
        description:
          'The signing secret (whsec_…) is answered this once. The URL must be https:// and must not resolve to a loopback, private, link-local or metadata address (unless the server sets WEBHOOK_ALLOW_PRIVATE). scope "team": owners and admins only (404 for others).',
        tags: ['webhooks'],
        access: user,
      },
      { body: WebhookCreateRequest, response: responses(WebhookCreateResponse, 400, 401, 403, 404, 409, 415) },
    ),
    async (request): Promise<WebhookCreateResponse> => {
      const { hook, secret } = await webhooks.create(principalOf(request, 'user').userId, request.body);
      return { id: hook.id, secret, webhook: hookWire(hook) };
    },
  );

  app.get(
    '/functions/svc-webhooks',
    operation(
      {
        operationId: 'listWebhooks',
        summary: "The caller's and their teams' webhooks",
        tags: ['webhooks'],
        access: user,
      },
      { response: responses(WebhookListResponse, 401, 403) },
    ),
    async (request) => ({ webhooks: (await webhooks.list(principalOf(request, 'user').userId)).map(hookWire) }),
  );

  app.post(
    '/functions/svc-webhook-delete',
    operation(
      {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook (and what it still had to deliver)',
        tags: ['webhooks'],
        access: user,
      },
      { body: IdRequest, response: responses(DeletedResponse, 400, 401, 403, 404, 415) },
    ),
    async (request) => {
      await webhooks.remove(principalOf(request, 'user').userId, request.body.id);
      return { deleted: true as const, id: request.body.id };
    },
  );

  app.post(
    '/functions/svc-webhook-test',
    operation(
      {
        operationId: 'testWebhook',
        summary: 'Send a webhook.test event now, once, and answer how it went',
        tags: ['webhooks'],
        access: user,
      },
      { body: IdRequest, response: responses(WebhookTestResponse, 400, 401, 403, 404, 415) },
    ),
    async (request): Promise<WebhookTestResponse> => {
      const r = await webhooks.test(principalOf(request, 'user').userId, request.body.id);
      return {
        delivered: r.error === null,
        message_id: r.messageId,
        status_code: r.statusCode,
        duration_ms: r.durationMs,
        error: r.error,
      };
    },
  );

  app.get(
    '/functions/svc-webhook-deliveries',
    operation(
      {
        operationId: 'listWebhookDeliveries',
        summary: "A webhook's recent delivery attempts (newest first, at most 100)",
        tags: ['webhooks'],
        access: user,
      },
      { querystring: WebhookDeliveriesQuery, response: responses(WebhookDeliveriesResponse, 400, 401, 403, 404) },
    ),
    async (request): Promise<WebhookDeliveriesResponse> => {
      const attempts = await webhooks.deliveries(principalOf(request, 'user').userId, request.query.id);
      return {
        id: request.query.id,
        deliveries: attempts.map((a) => ({
          message_id: a.messageId,
          event: a.eventType,
          attempted_at: new Date(a.attemptedAt).toISOString(),
          status_code: a.statusCode,
          duration_ms: a.durationMs,
          error: a.error,
        })),
      };
    },
  );
}
