/**
 * @fileoverview Declares an operation of the interface in one place: its OpenAPI metadata, its
 * accepted roles (enforced by http/access.ts) and the matching security requirement.
 */
import type { FastifySchema } from 'fastify';
import type { RouteAccess } from '../http/access.js';
import type { Role } from '../http/principal.js';

const SCHEME_OF: Record<Role, string> = {
  user: 'UserJWT',
  device: 'DeviceToken',
  share: 'ShareToken',
  service_role: 'ServiceRoleKey',
};

export interface OperationSpec {
  operationId: string;
  summary: string;
  tags: string[];
  access?: RouteAccess;
  description?: string;
}

/** Route options for an operation: schema metadata plus the access rule in the route config. */
export function operation<S extends FastifySchema>(spec: OperationSpec, schema: S) {
  const security: Array<Record<string, string[]>> = [];
  if (spec.access && !spec.access.ignoreBearer) {
    for (const role of spec.access.roles) security.push({ [SCHEME_OF[role]]: [] });
    if (spec.access.anonymous || spec.access.inspectOnly) security.push({});
  }
  return {
    schema: {
      operationId: spec.operationId,
      summary: spec.summary,
      tags: spec.tags,
      ...(spec.description ? { description: spec.description } : {}),
      security,
      ...schema,
    },
    config: { access: spec.access } as { access?: RouteAccess; optionalBody?: boolean },
  };
}

export const SECURITY_SCHEMES = {
  UserJWT: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'Access token from POST /auth/v1/token (role user). GET operations also take a read-only personal API token (tt_pat_…, createApiToken) here; every other operation refuses it (403).',
  },
  DeviceToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'Opaque device token (tt_dev_…) from issueDeviceToken or exchangeLinkCode.',
  },
  ShareToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'Opaque share token (tt_share_…) from setPublicVisibility.',
  },
  ServiceRoleKey: {
    type: 'http',
    scheme: 'bearer',
    description: "The server's SERVICE_ROLE_KEY. Never expose it to browsers or agents.",
  },
} as const;
