/**
 * @fileoverview Declarative access rules. Each route names the roles it accepts in its config;
 * an onRequest hook built for each such route enforces the interface's 401/403 rules (docs/interface.md) before its
 * other hooks run.
 *
 * Read-only credentials (personal API tokens: a user principal with `readOnly`) pass only routes
 * that read — every method of the route GET or HEAD, or a route declared `onlyReads` — unless the
 * route opts out (`refuseReadOnly`); every other route that accepts the user role answers them 403. Decided here
 * for every route, when it is registered, so no route can forget it.
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
  /** A read (GET) that still refuses read-only credentials (personal API tokens) with 403. */
  readonly refuseReadOnly?: boolean;
  /**
   * A POST that only reads, whatever its body asks (the MCP server, every tool of which reads):
   * read-only credentials pass it like a GET.
   */
  readonly onlyReads?: boolean;
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
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const reads = access.onlyReads === true || methods.every((m) => m === 'GET' || m === 'HEAD');
    const readOnlyPasses = reads && access.refuseReadOnly !== true;
    route.onRequest = [accessHook(access, readOnlyPasses, resolver, clock), ...hookList(route.onRequest)];
  });
}

function accessHook(
  access: RouteAccess,
  readOnlyPasses: boolean,
  resolver: PrincipalResolver,
  clock: Clock,
): onRequestHookHandler {
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
    decide(access, readOnlyPasses, resolution);
  };
}

function decide(access: RouteAccess, readOnlyPasses: boolean, resolution: Resolution): void {
  if (resolution.kind === 'ok') {
    const principal = resolution.principal;
    if (!access.roles.includes(principal.role as Role)) {
      throw problems.forbidden(`A ${principal.role.replace('_', ' ')} credential may not perform this operation.`);
    }
    if (principal.role === 'user' && principal.readOnly && !readOnlyPasses)
      throw problems.forbidden('An API token is read-only: it may not perform this operation; sign in instead.');
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
