/**
 * @fileoverview Declarative access rules. Each route names the roles it accepts in its config;
 * one onRequest hook enforces the contract's 401/403 rules before anything else runs.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import { problems } from './problem.js';
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

/** Installs the hook; routes without an `access` config are public and see no principal. */
export function registerAccessControl(app: FastifyInstance, resolver: PrincipalResolver, clock: Clock): void {
  app.decorateRequest('principal');
  app.decorateRequest('authResolution');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    request.principal = ANONYMOUS;
    request.authResolution = NO_BEARER;
    const access = request.routeOptions.config.access;
    if (!access || access.ignoreBearer) return;
    const resolution = await resolver.resolve(request.headers.authorization, clock.now());
    request.authResolution = resolution;
    if (resolution.kind === 'ok') request.principal = resolution.principal;
    if (access.inspectOnly) return;
    decide(access, resolution);
  });
}

function decide(access: RouteAccess, resolution: Resolution): void {
  if (resolution.kind === 'ok') {
    if (!access.roles.includes(resolution.principal.role as Role)) {
      throw problems.forbidden(`A ${resolution.principal.role.replace('_', ' ')} credential may not perform this operation.`);
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
export function principalOf<R extends Principal['role']>(request: FastifyRequest, role: R): Extract<Principal, { role: R }> {
  const principal = request.principal;
  if (principal.role !== role) throw problems.forbidden();
  return principal as Extract<Principal, { role: R }>;
}
