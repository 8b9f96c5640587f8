/**
 * @fileoverview debugAuth (never fails, exposes no secret) and the /healthz probe, which also names
 * the server's version (for `tokentally doctor`) and says whether the stored costs are being
 * repriced (answers use the previous prices until that ends; docs/pricing.md, "Stored costs").
 */
import { Type } from '@sinclair/typebox';
import type { App } from '../app-types.js';
import type { PricingStatus } from '../services/repricing.js';
import { safeEqual } from '../security/tokens.js';
import { responses } from '../schemas/common.js';
import { operation } from './operation.js';

const DebugAuthResponse = Type.Object({
  hasAnonKey: Type.Boolean(),
  hasBearer: Type.Boolean(),
  authOk: Type.Boolean(),
  userId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
  error: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

export function registerDiagnosticsRoutes(
  app: App,
  deps: { anonKey: string; version: string; pricing: () => Promise<PricingStatus> },
): void {
  app.get(
    '/functions/svc-debug-auth',
    operation(
      {
        operationId: 'debugAuth',
        summary: 'Report non-secret authentication state',
        tags: ['diagnostics'],
        access: { roles: ['user'], anonymous: true, inspectOnly: true },
      },
      { response: responses(DebugAuthResponse) },
    ),
    async (request) => {
      const apikey = request.headers.apikey;
      const hasAnonKey = typeof apikey === 'string' && safeEqual(apikey, deps.anonKey);
      const resolution = request.authResolution;
      if (resolution.kind === 'none')
        return { hasAnonKey, hasBearer: false, authOk: false, userId: null, error: 'no bearer token sent' };
      if (resolution.kind === 'invalid')
        return { hasAnonKey, hasBearer: true, authOk: false, userId: null, error: resolution.reason };
      if (resolution.principal.role !== 'user') {
        return {
          hasAnonKey,
          hasBearer: true,
          authOk: false,
          userId: null,
          error: `a ${resolution.principal.role.replace('_', ' ')} credential is not a user token`,
        };
      }
      return { hasAnonKey, hasBearer: true, authOk: true, userId: resolution.principal.userId, error: null };
    },
  );

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      // Read from the database: it answers, and every process tells the same.
      return { status: 'ok', version: deps.version, pricing: await deps.pricing() };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
