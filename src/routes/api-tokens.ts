/**
 * @fileoverview createApiToken, listApiTokens, revokeApiToken: a signed-in user's read-only personal
 * API tokens (docs/api-tokens.md). Creating and revoking are POSTs, so an API token itself is
 * refused them (403, http/access.ts); listing is a read it may do.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { problems } from '../http/problem.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { ApiTokenListing } from '../db/queries/api-tokens.js';
import {
  ApiTokenCreateRequest,
  ApiTokenCreateResponse,
  ApiTokenListResponse,
  ApiTokenRevokeRequest,
  ApiTokenRevokeResponse,
  type ApiTokenEntry,
} from '../schemas/api-tokens.js';
import { responses } from '../schemas/common.js';
import type { ApiTokenService } from '../services/api-tokens.js';
import { operation } from './operation.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function tokenWire(t: ApiTokenListing): ApiTokenEntry {
  return {
    id: t.id,
    name: t.name,
    created_at: new Date(t.createdAt).toISOString(),
    expires_at: iso(t.expiresAt),
    last_used_at: iso(t.lastUsedAt),
  };
}

export interface ApiTokenRouteDeps {
  apiTokens: ApiTokenService;
  /** Tokens created, per user (its own bucket of the per-user devices limit). */
  limiter: RateLimiter;
}

export function registerApiTokenRoutes(app: App, deps: ApiTokenRouteDeps): void {
  const { apiTokens, limiter } = deps;
  const perUser = async (request: FastifyRequest) => {
    if (request.principal.role !== 'user') return;
    const decision = await limiter.take(`api-tokens:${request.principal.userId}`);
    if (!decision.allowed)
      throw problems.rateLimited(decision.retryAfterSeconds, 'Too many new API tokens for this account; retry later.');
  };

  app.post(
    '/functions/svc-api-token-create',
    {
      ...operation(
        {
          operationId: 'createApiToken',
          summary: 'Create a read-only personal API token',
          description:
            'The token (tt_pat_…) is answered this once. It reads what the user may read (GET operations) and is refused (403) every write. Needs a sign-in token: an API token may not create tokens.',
          tags: ['api-tokens'],
          access: { roles: ['user'] },
        },
        { body: ApiTokenCreateRequest, response: responses(ApiTokenCreateResponse, 400, 401, 403, 409, 415, 429) },
      ),
      onRequest: perUser,
    },
    async (request): Promise<ApiTokenCreateResponse> => {
      const created = await apiTokens.create(
        principalOf(request, 'user').userId,
        request.body.name,
        request.body.expires_in_days,
      );
      const wire = tokenWire(created);
      return {
        id: wire.id,
        token: created.token,
        name: wire.name,
        created_at: wire.created_at,
        expires_at: wire.expires_at,
      };
    },
  );

  app.get(
    '/functions/svc-api-tokens',
    operation(
      {
        operationId: 'listApiTokens',
        summary: "List the caller's API tokens",
        description: 'Newest first, expired ones too until revoked; never the tokens themselves.',
        tags: ['api-tokens'],
        access: { roles: ['user'] },
      },
      { response: responses(ApiTokenListResponse, 401, 403) },
    ),
    async (request): Promise<ApiTokenListResponse> => ({
      tokens: (await apiTokens.list(principalOf(request, 'user').userId)).map(tokenWire),
    }),
  );

  app.post(
    '/functions/svc-api-token-revoke',
    operation(
      {
        operationId: 'revokeApiToken',
        summary: "Revoke one of the caller's API tokens",
        description: 'The token is refused (401) from the next request on, on every server process.',
        tags: ['api-tokens'],
        access: { roles: ['user'] },
      },
      { body: ApiTokenRevokeRequest, response: responses(ApiTokenRevokeResponse, 400, 401, 403, 404, 415) },
    ),
    async (request): Promise<ApiTokenRevokeResponse> => {
      await apiTokens.revoke(principalOf(request, 'user').userId, request.body.id);
      return { revoked: true, id: request.body.id };
    },
  );
}
