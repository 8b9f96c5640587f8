/**
 * @fileoverview Every operation of the running app, for the sweeps that feed each one hostile or
 * generated input: those in /openapi.json, and the sign-in API (GoTrue-compatible, kept out of it).
 * A surface added later is in /openapi.json, so the sweeps try it without being told.
 */
import type { TestApp } from './app.js';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  query: string[];
  /** The body's field names; undefined when the operation takes no body. */
  body: string[] | undefined;
  /** The body's schema, when /openapi.json gives it. */
  schema?: JsonSchema | undefined;
}

const SIGN_IN: Operation[] = [
  { method: 'POST', path: '/auth/v1/signup', query: [], body: ['email', 'password', 'data'] },
  { method: 'POST', path: '/auth/v1/token', query: ['grant_type'], body: ['email', 'password', 'refresh_token'] },
  { method: 'GET', path: '/auth/v1/user', query: [], body: undefined },
  { method: 'PUT', path: '/auth/v1/user', query: [], body: ['email', 'password', 'data'] },
  { method: 'POST', path: '/auth/v1/logout', query: ['scope'], body: undefined },
  { method: 'GET', path: '/auth/v1/settings', query: [], body: undefined },
];

interface OpenApiOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** The sign-in API's operations, then every operation of /openapi.json. */
export async function listOperations(t: TestApp): Promise<Operation[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
    paths: Record<string, Record<string, OpenApiOperation>>;
  }>();
  return SIGN_IN.concat(
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const schema = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined;
        return {
          method: method.toUpperCase(),
          path,
          query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
          body: schema ? Object.keys(schema.properties ?? {}) : undefined,
          schema,
        };
      }),
    ),
  );
}
