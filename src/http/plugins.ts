/**
 * @fileoverview The Fastify plugins every server registers before its routes: CORS for browser
 * clients on other origins, and the OpenAPI description (`/openapi.json`) built from the routes'
 * own TypeBox schemas.
 */
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { TSchema } from '@sinclair/typebox';
import type { App } from '../app-types.js';

/** The interface version this server implements (docs/interface.md). */
export const API_VERSION = '0.6.4';

export interface ApiDescription {
  /** The OpenAPI security schemes the operations name (routes/operation.ts). */
  securitySchemes: Record<string, OpenAPIV3_1.SecuritySchemeObject>;
  /** Schemas shared by reference, each under its `$id` (e.g. the problem document). */
  sharedSchemas: readonly TSchema[];
}

export async function registerHttpPlugins(app: App, description: ApiDescription): Promise<void> {
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'OPTIONS'],
    // OPTIONS without the preflight headers is answered like a preflight (204), never a text/plain 400.
    strictPreflight: false,
    // Mcp-Protocol-Version: what a browser's MCP client (an inspector) sends to /mcp.
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'apikey',
      'X-Client-Info',
      'X-Supabase-Api-Version',
      'Mcp-Protocol-Version',
    ],
    exposedHeaders: ['Retry-After'],
    maxAge: 86_400,
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tokentally API',
        version: API_VERSION,
        description: 'Token usage tracking for AI coding agents: ingest, analytics, sharing and admin.',
      },
      components: { securitySchemes: description.securitySchemes },
    },
    // Shared schemas keep their $id as their component name (e.g. #/components/schemas/Problem).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  for (const schema of description.sharedSchemas) app.addSchema(schema);
}
