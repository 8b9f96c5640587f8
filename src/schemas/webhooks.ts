/** @fileoverview Webhooks: createWebhook, listWebhooks, deleteWebhook, testWebhook, listWebhookDeliveries (docs/webhooks.md). */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from './common.js';

export const WebhookEvent = Type.Union([
  Type.Literal('budget.threshold_crossed'),
  Type.Literal('device.linked'),
  Type.Literal('device.revoked'),
  Type.Literal('team.member_joined'),
  Type.Literal('team.member_left'),
  Type.Literal('usage.daily'),
]);
const Scope = Type.Union([Type.Literal('user'), Type.Literal('team')]);
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const WebhookCreateRequest = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'https:// (http:// only with WEBHOOK_ALLOW_PRIVATE)',
    }),
    events: Type.Array(WebhookEvent, { minItems: 1, maxItems: 6 }),
    scope: Scope,
    team_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    description: Type.Optional(Type.String({ maxLength: 200 })),
    tz: Type.Optional(Type.String({ maxLength: 64, description: "IANA zone of usage.daily's days (default UTC)" })),
  },
  { additionalProperties: false },
);
export type WebhookCreateRequest = Static<typeof WebhookCreateRequest>;

export const WebhookEntry = Type.Object({
  id: Uuid,
  url: Type.String(),
  events: Type.Array(Type.String()),
  scope: Scope,
  team_id: Nullable(Type.String()),
  description: Nullable(Type.String()),
  tz: Type.String(),
  created_at: DateTime,
  failing_since: Nullable(DateTime),
  disabled_at: Nullable(DateTime),
});
export type WebhookEntry = Static<typeof WebhookEntry>;

export const WebhookCreateResponse = Type.Object({
  id: Uuid,
  secret: Type.String({ description: 'The signing secret (whsec_…): shown this once.' }),
  webhook: WebhookEntry,
});
export type WebhookCreateResponse = Static<typeof WebhookCreateResponse>;

export const WebhookListResponse = Type.Object({ webhooks: Type.Array(WebhookEntry) });
export type WebhookListResponse = Static<typeof WebhookListResponse>;

export const WebhookTestResponse = Type.Object({
  delivered: Type.Boolean(),
  message_id: Type.String(),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
});
export type WebhookTestResponse = Static<typeof WebhookTestResponse>;

export const WebhookDeliveriesQuery = Type.Object({ id: Uuid });

export const WebhookAttemptEntry = Type.Object({
  message_id: Type.String({ description: 'the webhook-id header' }),
  event: Type.String(),
  attempted_at: DateTime,
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
});

export const WebhookDeliveriesResponse = Type.Object({ id: Uuid, deliveries: Type.Array(WebhookAttemptEntry) });
export type WebhookDeliveriesResponse = Static<typeof WebhookDeliveriesResponse>;
