/** @fileoverview The landing page (until the dashboard lands) and the OpenAPI document. */
import type { App } from '../app-types.js';

const LANDING = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tokentally</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}
code{background:#f2f2f4;padding:.1rem .3rem;border-radius:4px}a{color:#0a58ca}</style></head>
<body>
<h1>Tokentally</h1>
<p>Tracks the tokens your AI coding agents burn, on every machine you use.</p>
<p>This server is running. The dashboard is on its way; meanwhile:</p>
<ul>
<li><a href="/openapi.json">OpenAPI document</a> of the HTTP interface</li>
<li><a href="/docs/auth">Authentication guide</a> · <a href="/docs/webhooks">Webhooks</a> · <a href="/llms.txt">llms.txt</a></li>
<li>Sign-in API under <code>/auth/v1</code> (GoTrue-compatible)</li>
<li><a href="/healthz">Health check</a></li>
</ul>
<p>Link a machine: create a link code (<code>POST /functions/svc-link-code-init</code>), then run
<code>tokentally link --server &lt;this address&gt; --code &lt;code&gt;</code>.</p>
</body></html>
`;

export function registerDiscoveryRoutes(app: App): void {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(LANDING));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
