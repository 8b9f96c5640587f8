/**
 * @fileoverview Serves the dashboard (docs/dashboard.md): the built files of `npm run build:web`
 * (dist/web), read once at start-up and kept in memory with their gzip forms. Hashed assets are
 * immutable; the app's own routes get index.html (a history-API app) with the pages' headers
 * (http/page-headers.ts: a Content-Security-Policy that allows nothing but this origin). Without a
 * build, `/` says how to make one. A public profile page (`/u/<handle|user_id>`) gets its link
 * preview's tags in its HTML (dashboard-preview.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import { PAGE_HEADERS } from '../http/page-headers.js';
import type { ProfilePreview } from '../services/profile-page.js';
import { previewTags, withPreview } from './dashboard-preview.js';

/** The paths the app answers itself (anything else stays a 404 problem document). */
export const APP_ROUTES = [
  '/',
  '/sign-in',
  '/sign-up',
  '/forgot-password',
  '/devices',
  '/link',
  '/teams',
  '/join',
  '/leaderboard',
  '/settings',
  '/admin',
  '/share',
  '/guide',
  '/u/:userId',
];

/** Paths of the API and the protocols: an unknown one stays a problem document, whatever the client accepts. */
const API_PREFIXES = [
  '/functions/',
  '/api/',
  '/auth/',
  '/v1/',
  '/mcp',
  '/rest/',
  '/docs/',
  '/cli/',
  '/badge/',
  '/card/',
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

interface StaticFile {
  type: string;
  body: Buffer;
  gzip: Buffer | undefined;
}

function load(path: string): StaticFile {
  const body = readFileSync(path);
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  const gzip =
    /^(text|application\/json|image\/svg)/.test(type) && body.length > 512 ? gzipSync(body, { level: 9 }) : undefined;
  return { type, body, gzip };
}

/** dist/web of the package this module belongs to (src/routes in development, dist/src/routes once compiled). */
export function findWebDir(start = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = start;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) {
      const web = join(dir, 'dist', 'web');
      return existsSync(join(web, 'index.html')) ? web : undefined;
    }
    dir = dirname(dir);
  }
  return undefined;
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, cache: string) {
  reply.header('cache-control', cache).header('vary', 'accept-encoding').type(file.type);
  if (file.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')))
    return reply.header('content-encoding', 'gzip').send(file.gzip);
  return reply.send(file.body);
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Tokentally</title>
<link rel="stylesheet" href="/docs/style.css"></head>
<body>
<h1>Tokentally</h1>
<p>This server is running, but its dashboard has not been built. Build it with <code>npm run build:web</code> and restart the server.</p>
<ul><li><a href="/openapi.json">OpenAPI document</a></li><li><a href="/docs/auth">Authentication guide</a> · <a href="/docs/webhooks">Webhooks</a> · <a href="/llms.txt">llms.txt</a></li></ul>
</body></html>
`;

export interface DashboardOptions {
  webDir?: string | undefined;
  /** The link preview of a profile address, when that profile is public; with `publicUrl`. */
  profilePreview?: ((address: string) => Promise<ProfilePreview | undefined>) | undefined;
  publicUrl?: string | undefined;
}

export function registerDashboardRoutes(app: App, options: DashboardOptions = {}): void {
  const webDir = options.webDir ?? findWebDir();
  const hidden = { schema: { hide: true } };
  if (!webDir) {
    app.get('/', hidden, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').headers(PAGE_HEADERS).header('cache-control', 'no-cache').send(NOT_BUILT),
    );
    return;
  }
  const index = load(join(webDir, 'index.html'));
  const assets = new Map<string, StaticFile>();
  const assetDir = join(webDir, 'assets');
  if (existsSync(assetDir)) for (const name of readdirSync(assetDir)) assets.set(name, load(join(assetDir, name)));
  const favicon = existsSync(join(webDir, 'favicon.svg')) ? load(join(webDir, 'favicon.svg')) : undefined;

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(PAGE_HEADERS);
    return send(request, reply, index, 'no-cache');
  };
  const { profilePreview, publicUrl } = options;
  const profilePage = async (request: FastifyRequest<{ Params: { userId: string } }>, reply: FastifyReply) => {
    const preview = profilePreview && publicUrl ? await profilePreview(request.params.userId) : undefined;
    if (!preview) return page(request, reply);
    const html = withPreview(index.body.toString('utf8'), previewTags(preview, publicUrl as string));
    return reply.headers(PAGE_HEADERS).header('cache-control', 'no-cache').type(index.type).send(html);
  };
  for (const route of APP_ROUTES)
    if (route === '/u/:userId') app.get(route, hidden, profilePage);
    else app.get(route, hidden, page);
  // Any other address a browser asks for gets the app's "Not found" page (status 404), not a problem document.
  app.get('/*', hidden, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const html = /\btext\/html\b/.test(String(request.headers.accept ?? ''));
    if (!html || API_PREFIXES.some((p) => path.startsWith(p)) || path.startsWith('/.well-known/'))
      return reply.callNotFound();
    reply.code(404).headers(PAGE_HEADERS);
    return send(request, reply, index, 'no-cache');
  });
  app.get<{ Params: { name: string } }>('/assets/:name', hidden, async (request, reply) => {
    const file = assets.get(request.params.name);
    if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return send(request, reply, file, 'public, max-age=31536000, immutable');
  });
  if (favicon)
    app.get('/favicon.svg', hidden, async (request, reply) => send(request, reply, favicon, 'public, max-age=86400'));
}
