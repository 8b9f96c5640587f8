/**
 * @fileoverview Discovery documents on the same origin: the auth guide (/docs/auth), the
 * webhooks guide (/docs/webhooks, its text in webhooks-guide.ts), /llms.txt and the tool manifest
 * (/.well-known/ai-plugin.json). Static text; absolute URLs start with the configured public URL
 * (PUBLIC_URL), never with the request's Host header: a request naming another host must not get
 * (or, through a shared cache, give others) a file pointing agents at that host. The guides carry
 * the pages' headers (http/page-headers.ts), their style in /docs/style.css.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import { PAGE_HEADERS } from '../http/page-headers.js';
import { WEBHOOKS_GUIDE } from './webhooks-guide.js';

/** The guides' (and the "not built" page's) stylesheet: a file of its own, as the pages' CSP allows no inline style. */
const STYLE = `body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}
code,pre{background:#f2f2f4;border-radius:4px}code{padding:.1rem .3rem}pre{padding:.7rem;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}a{color:#0a58ca}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Tokentally</title><link rel="stylesheet" href="/docs/style.css"></head>
<body><p><a href="/">Tokentally</a> · <a href="/openapi.json">OpenAPI</a> · <a href="/docs/auth">Auth</a> · <a href="/docs/webhooks">Webhooks</a> · <a href="/llms.txt">llms.txt</a></p>
${body}
</body></html>
`;
}

const AUTH = page(
  'Authentication',
  `<h1>Authentication</h1>
<p>Every credential is sent as an HTTP bearer token: <code>Authorization: Bearer &lt;token&gt;</code>. Each operation
accepts only the roles listed for it in <a href="/openapi.json">the OpenAPI document</a>. A missing or unrecognised
token answers 401 (with <code>WWW-Authenticate: Bearer</code>); a valid credential of a role the operation does not
accept answers 403. syncPricing and purgeEvents answer 403 to every caller but the service role key.</p>
<table>
<tr><th>Scheme</th><th>Role</th><th>How you get it</th><th>What it is for</th></tr>
<tr><td><code>UserJWT</code></td><td>user</td><td>Sign up or sign in with the GoTrue-compatible sign-in API:
<code>POST /auth/v1/signup</code> or <code>POST /auth/v1/token?grant_type=password</code> with
<code>{"email", "password"}</code>. The answer carries <code>access_token</code> (an HS256 JWT, valid one hour) and a
single-use <code>refresh_token</code>; renew with <code>POST /auth/v1/token?grant_type=refresh_token</code>.
<code>@supabase/auth-js</code> pointed at <code>/auth/v1</code> works unchanged.</td>
<td>Your analytics, visibility settings (<code>svc-public-visibility</code>), device tokens and link codes, and a leaderboard read that includes your own row (<code>me</code>).</td></tr>
<tr><td><code>DeviceToken</code></td><td>device</td><td>Opaque <code>tt_dev_…</code>. Either <code>POST /functions/svc-device-token-issue</code>
with a user JWT, or create a link code (<code>POST /functions/svc-link-code-init</code>, user JWT, valid 10 minutes) and
exchange it on the machine: <code>POST /functions/svc-link-code-exchange</code> with <code>{"link_code", "request_id"}</code>
(no credential; the same <code>request_id</code> within 24 hours gets the same token back). The CLI does this with
<code>tokentally link --code …</code>.</td>
<td>Uploading usage (<code>svc-ingest</code>) and sync heartbeats; it reads nothing. The link-code exchange's answer also names the account the device joined, so the CLI can say so.</td></tr>
<tr><td><code>UserJWT</code> (API token)</td><td>user, read-only</td><td>Opaque <code>tt_pat_…</code>: a personal API token, created
with a user JWT (<code>POST /functions/svc-api-token-create</code> with <code>{"name", "expires_in_days"?}</code>, or
Settings → API tokens), shown once; list them with <code>GET /functions/svc-api-tokens</code>, revoke with
<code>POST /functions/svc-api-token-revoke</code>.</td>
<td>Scripts, dashboards and agents that read: every GET operation that accepts a user JWT answers it as it would the
user's. Every other operation answers it 403.</td></tr>
<tr><td><code>ShareToken</code></td><td>share</td><td>Opaque <code>tt_share_…</code>, returned by <code>POST /functions/svc-public-visibility</code>
with <code>{"enabled": true}</code> and by the GET of the same path while sharing is on. Turning sharing off revokes it at
once; turning it on again issues a new one.</td>
<td>The privacy-safe public profile (<code>svc-public-view-profile</code>): display name, http(s) avatar and user id.</td></tr>
<tr><td><code>ServiceRoleKey</code></td><td>service_role</td><td>The server's <code>SERVICE_ROLE_KEY</code>: set it in the environment, or read the
generated one with <code>npm run admin -- keys</code>.</td>
<td>Administration: refreshing leaderboard snapshots, syncing prices, purging old upload records, issuing device tokens for any user. Never give it to a browser or an agent.</td></tr>
</table>
<h2>Without a credential</h2>
<p>exchangeLinkCode, getLeaderboard, getLeaderboardProfile and debugAuth can be called anonymously; the last three also
accept a user JWT. Anonymous leaderboard readers see the same entries as signed-in ones; users who have not turned
sharing on appear without id, name or avatar.</p>
<h2>The anonymous key</h2>
<p>The <code>apikey</code> request header may carry the server's <code>ANON_KEY</code>, as Supabase clients send it. No operation
requires it; <code>GET /functions/svc-debug-auth</code> reports whether it matched (<code>hasAnonKey</code>), whether a
bearer was sent and whether it is a valid user token, and never reveals a secret.</p>
<h2>Storage</h2>
<p>Passwords are stored as scrypt hashes; device, share and refresh tokens only as SHA-256 hashes.</p>`,
);

const WEBHOOKS = page('Webhooks', WEBHOOKS_GUIDE);

function llmsTxt(base: string): string {
  return `# Tokentally

> Self-hostable tracker for the tokens AI coding agents (Codex CLI, Claude Code, Gemini CLI, OpenCode, …) use: exact
> per-half-hour counts per device, source and model, cost, time-zone-aware analytics, a public leaderboard and
> privacy-safe sharing. HTTP interface version 0.6.4; every endpoint lives under ${base}/functions/svc-<operation>.

## Docs

- [OpenAPI 3.1 document](${base}/openapi.json): all 22 operations with request/response schemas, security and errors
- [Authentication guide](${base}/docs/auth): user JWTs (sign-in API under /auth/v1), device tokens, share tokens, the service role key
- [Webhooks guide](${base}/docs/webhooks): events (budget alerts, devices, team members, daily usage), Standard Webhooks signatures, retries
- [Tool manifest](${base}/.well-known/ai-plugin.json)
- MCP server: ${base}/mcp (streamable HTTP, stateless), read-only tools for your usage, daily series, model breakdown, top projects, budget status and leaderboard rank; send a personal API token (tt_pat_…) as the bearer

## Notes for agents

- Send credentials as \`Authorization: Bearer <token>\`. Use the narrowest role: a device token only uploads; a user JWT reads that user's analytics.
- Token counts in responses are decimal strings (sums can exceed 2^53); costs are decimal strings with six places.
- Errors are RFC 9457 problem documents (application/problem+json) with a stable \`code\` and, for invalid input, per-field \`errors\`.
- Analytics take \`tz\` (IANA zone) or \`tz_offset_minutes\`; dates are YYYY-MM-DD in that zone.
- Never ask for or use the service role key unless you are administering the server.
`;
}

function pluginManifest(base: string) {
  return {
    schema_version: 'v1',
    name_for_human: 'Tokentally',
    name_for_model: 'tokentally',
    description_for_human: 'See how many tokens your AI coding agents use, what they cost, and how you rank.',
    description_for_model:
      "Reads a signed-in user's AI token usage (totals, daily, half-hourly, monthly, per source and model, projects, heatmap) and the public leaderboard. Token counts are decimal strings. Use the user's bearer token; never the service role key.",
    auth: { type: 'user_http', authorization_type: 'bearer' },
    api: { type: 'openapi', url: `${base}/openapi.json` },
    logo_url: `${base}/favicon.ico`,
    contact_email: 'admin@localhost',
    legal_info_url: `${base}/docs/auth`,
  };
}

/** `publicUrl`: the server's public base URL (config.publicUrl), with which every absolute URL here starts. */
export function registerDiscoveryDocRoutes(app: App, publicUrl: string): void {
  const hide = { schema: { hide: true } };
  const llms = llmsTxt(publicUrl);
  const manifest = pluginManifest(publicUrl);
  const html = (body: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').headers(PAGE_HEADERS).send(body);
  app.get('/docs/auth', hide, html(AUTH));
  app.get('/docs/webhooks', hide, html(WEBHOOKS));
  app.get('/docs/style.css', hide, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLE),
  );
  app.get('/llms.txt', hide, async (_request, reply) => reply.type('text/plain; charset=utf-8').send(llms));
  app.get('/.well-known/ai-plugin.json', hide, async () => manifest);
}
