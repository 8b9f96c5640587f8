/** @fileoverview issueDeviceToken, initLinkCode, exchangeLinkCode. */
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { problems } from '../http/problem.js';
import { clientKey, type RateLimiter } from '../http/rate-limit.js';
import { responses } from '../schemas/common.js';
import {
  DeviceTokenIssueRequest,
  DeviceTokenIssueResponse,
  LinkCodeExchangeRequest,
  LinkCodeExchangeResponse,
  LinkCodeInitResponse,
} from '../schemas/onboarding.js';
import type { OnboardingService } from '../services/onboarding.js';
import { operation } from './operation.js';

export interface OnboardingRouteDeps {
  onboarding: OnboardingService;
  /** Link-code exchanges per client address. */
  exchangeLimiter: RateLimiter;
  /** Link codes created and device tokens issued, per user. */
  devicesLimiter: RateLimiter;
}

export function registerOnboardingRoutes(app: App, deps: OnboardingRouteDeps): void {
  const { onboarding, exchangeLimiter, devicesLimiter } = deps;
  // A user's new credentials are limited per user (the service role key is the operator's and is not).
  const perUser = async (request: FastifyRequest) => {
    if (request.principal.role !== 'user') return;
    const decision = await devicesLimiter.take(`devices:${request.principal.userId}`);
    if (!decision.allowed)
      throw problems.rateLimited(
        decision.retryAfterSeconds,
        'Too many new devices or link codes for this account; retry later.',
      );
  };

  const issue = operation(
    {
      operationId: 'issueDeviceToken',
      summary: 'Issue a device token',
      tags: ['devices'],
      access: { roles: ['user', 'service_role'] },
    },
    { body: DeviceTokenIssueRequest, response: responses(DeviceTokenIssueResponse, 400, 401, 403, 409, 415, 429) },
  );
  app.post(
    '/functions/svc-device-token-issue',
    { ...issue, config: { ...issue.config, optionalBody: true }, onRequest: perUser },
    async (request): Promise<DeviceTokenIssueResponse> => {
      const body = request.body;
      const principal = request.principal;
      let userId: string;
      if (principal.role === 'service_role') {
        if (!body.user_id) throw problems.invalidField('/body/user_id', 'is required with the service role key');
        userId = body.user_id;
      } else {
        userId = principalOf(request, 'user').userId;
        if (body.user_id && body.user_id !== userId)
          throw problems.forbidden('A user may issue device tokens only for themselves.');
      }
      const issued = await onboarding.issueDeviceToken(userId, {
        deviceName: body.device_name,
        platform: body.platform,
      });
      return { device_id: issued.deviceId, token: issued.token, created_at: new Date(issued.createdAt).toISOString() };
    },
  );

  app.post(
    '/functions/svc-link-code-init',
    {
      ...operation(
        {
          operationId: 'initLinkCode',
          summary: 'Create a short-lived link code',
          tags: ['devices'],
          access: { roles: ['user'] },
        },
        { response: responses(LinkCodeInitResponse, 401, 403, 409, 429) },
      ),
      onRequest: perUser,
    },
    async (request): Promise<LinkCodeInitResponse> => {
      const { code, expiresAt } = await onboarding.createLinkCode(principalOf(request, 'user').userId);
      return { link_code: code, expires_at: new Date(expiresAt).toISOString() };
    },
  );

  const exchange = operation(
    {
      operationId: 'exchangeLinkCode',
      summary: 'Exchange a link code for a device token',
      description: 'Public. Replay-safe: the same request_id within 24 hours returns the same device and token.',
      tags: ['devices'],
      access: { roles: [], ignoreBearer: true },
    },
    { body: LinkCodeExchangeRequest, response: responses(LinkCodeExchangeResponse, 400, 409, 415, 429) },
  );
  app.post(
    '/functions/svc-link-code-exchange',
    {
      ...exchange,
      onRequest: async (request) => {
        const decision = await exchangeLimiter.take(`exchange:${clientKey(request.ip)}`);
        if (!decision.allowed) throw problems.rateLimited(decision.retryAfterSeconds);
      },
    },
    async (request): Promise<LinkCodeExchangeResponse> => {
      const body = request.body;
      const result = await onboarding.exchange(body.link_code, body.request_id, {
        deviceName: body.device_name,
        platform: body.platform,
      });
      return {
        token: result.token,
        device_id: result.deviceId,
        user_id: result.userId,
        account: { email: result.email, display_name: result.displayName },
      };
    },
  );
}
