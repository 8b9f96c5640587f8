/**
 * @fileoverview Declarative access rules. Each route names the roles it accepts in its config;
 * an onRequest hook built for each such route enforces the interface's 401/403 rules (docs/interface.md) before its
 * other hooks run.
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Clock } from '../clock.js';
import { problems } from './problem.js';
import { hookList } from './route-hooks.js';
import type { Principal, PrincipalResolver, Resolution, Role } from './principal.js';

export interface RouteAccess {
  /** Roles accepted. */
  readonly roles: readonly Role[];
  /** No bearer at all is fine (the caller is anonymous). */
  readonly anonymous?: boolean;
  /** Answer 403 to every caller outside `roles`, even without a bearer (syncPricing, purgeEvents). */
  readonly forbidUnlessRole?: boolean;
  /** Ignore any Authorization header (exchangeLinkCode). */
  readonly ignoreBearer?: boolean;
  /** Resolve but never reject: the handler reports the outcome (debugAuth). */
  readonly inspectOnly?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    principal: Principal;
    authResolution: Resolution;
  }
}

const ANONYMOUS: Principal = { role: 'anonymous' };
const NO_BEARER: Resolution = { kind: 'none' };

/**
 * Gives every route with an `access` config its access hook, first among its onRequest hooks (so
 * the route's own hooks see the principal). Routes without one are public and see no principal.
 */
export function registerAccessControl(app: FastifyInstance, resolver: PrincipalResolver, clock: Clock): void {
  app.decorateRequest('principal');
  app.decorateRequest('authResolution');
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (access === undefined) return;
    route.onRequest = [accessHook(access, resolver, clock), ...hookList(route.onRequest)];
  });
}

function accessHook(access: RouteAccess, resolver: PrincipalResolver, clock: Clock): onRequestHookHandler {
  if (access.ignoreBearer) {
    return (request, _reply, done) => {
      request.principal = ANONYMOUS;
      request.authResolution = NO_BEARER;
      done();
    };
  }
  return async (request: FastifyRequest) => {
    const resolution = await resolver.resolve(request.headers.authorization, clock.now());
    request.authResolution = resolution;
    request.principal = resolution.kind === 'ok' ? resolution.principal : ANONYMOUS;
    if (access.inspectOnly) return;
    decide(access, resolution);
  };
}

function decide(access: RouteAccess, resolution: Resolution): void {
  if (resolution.kind === 'ok') {
    if (!access.roles.includes(resolution.principal.role as Role)) {
      throw problems.forbidden(
        `A ${resolution.principal.role.replace('_', ' ')} credential may not perform this operation.`,
      );
    }
    return;
  }
  if (access.forbidUnlessRole) throw problems.forbidden('This operation needs the service role key.');
  if (resolution.kind === 'none') {
    if (access.anonymous) return;
    throw problems.unauthorized('A bearer token is required.');
  }
  throw problems.unauthorized(`The bearer token was not accepted: ${resolution.reason}.`);
}

/** Narrows the request's principal to a role the route's access config guarantees. */
export function principalOf<R extends Principal['role']>(
  request: FastifyRequest,
  role: R,
): Extract<Principal, { role: R }> {
  const principal = request.principal;
  if (principal.role !== role) throw problems.forbidden();
  return principal as Extract<Principal, { role: R }>;
}
