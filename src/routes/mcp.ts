/**
 * @fileoverview `POST /mcp`: the Model Context Protocol server (streamable HTTP, stateless; docs/mcp.md).
 * A user JWT or a read-only personal API token (every tool reads, so the route is declared
 * `onlyReads`); requests are limited per user. The JSON body comes parsed and bounded by the edge
 * (http/body-parsing.ts) and is handed to the SDK's transport with the request's headers, less the
 * credential; its answer goes back through Fastify, so the hooks every route has (CORS, request
 * log, metrics) apply. Other methods answer 405: a stateless server offers no GET stream.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { onRequestHookHandler } from 'fastify';
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { problems } from '../http/problem.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { McpEndpoint } from '../mcp/server.js';
import { operation } from './operation.js';

export interface McpRouteDeps {
  readonly mcp: McpEndpoint;
  /** Requests per user. */
  readonly limiter: RateLimiter;
}

/** The request's headers for the SDK, without the credential it has no use for. */
function forwardedHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'authorization') continue;
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else out.set(name, value);
  }
  return out;
}

export function registerMcpRoutes(app: App, deps: McpRouteDeps): void {
  const { mcp, limiter } = deps;
  const limited: onRequestHookHandler = async (request) => {
    const decision = await limiter.take(`mcp:${principalOf(request, 'user').userId}`);
    if (!decision.allowed)
      throw problems.rateLimited(decision.retryAfterSeconds, 'Too many MCP requests for this account; retry later.');
  };
  const route = operation(
    {
      operationId: 'mcp',
      summary: 'Model Context Protocol server (streamable HTTP, JSON-RPC)',
      tags: ['mcp'],
      access: { roles: ['user'], onlyReads: true },
    },
    { hide: true },
  );
  app.post('/mcp', { ...route, onRequest: limited }, async (request, reply) => {
    const userId = principalOf(request, 'user').userId;
    const web = new Request(new URL(request.url, 'http://localhost'), {
      method: 'POST',
      headers: forwardedHeaders(request.headers),
    });
    const answer = await mcp.answer(web, request.body, userId);
    reply.code(answer.status);
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length') void reply.header(name, value);
    });
    const text = await answer.text();
    return reply.send(text === '' ? undefined : text);
  });
}
