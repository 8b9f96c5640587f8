/**
 * @fileoverview Single sign-on under /auth/v1, as GoTrue answers it (so auth-js's `signInWithOAuth`
 * and `exchangeCodeForSession` work unchanged): `GET /authorize` sends the browser to the provider,
 * `GET /callback` is where the provider sends it back (register `<PUBLIC_URL>/auth/v1/callback` at
 * the provider). The flow itself is services/sso.ts; the pkce grant is in auth.ts's /token.
 */
import { Type } from '@sinclair/typebox';
import type { App } from '../app-types.js';
import { PAGE_HEADERS } from '../http/page-headers.js';
import type { SsoService } from '../services/sso.js';

const AuthorizeQuery = Type.Object(
  {
    provider: Type.String({ maxLength: 40 }),
    redirect_to: Type.Optional(Type.String({ maxLength: 2000 })),
    code_challenge: Type.Optional(Type.String({ maxLength: 200 })),
    code_challenge_method: Type.Optional(Type.String({ maxLength: 10 })),
    scopes: Type.Optional(Type.String({ maxLength: 500 })),
    skip_http_redirect: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const hidden = { hide: true, tags: ['auth'] };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page shown when a callback has nowhere safe to return to. */
function errorPage(message: string, home: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed · Tokentally</title></head>
<body><main><h1>Sign-in failed</h1><p>${escapeHtml(message)}</p>
<p><a href="${escapeHtml(home)}">Back to the sign-in page</a></p></main></body></html>
`;
}

export function registerSsoRoutes(
  app: App,
  deps: { sso: SsoService; publicUrl: string; rateLimited: (request: { ip: string }) => Promise<void> },
): void {
  const { sso, rateLimited } = deps;

  app.get(
    '/auth/v1/authorize',
    { schema: { ...hidden, querystring: AuthorizeQuery }, onRequest: rateLimited },
    async (request, reply) => {
      const q = request.query;
      const url = await sso.authorize({
        provider: q.provider,
        redirectTo: q.redirect_to,
        codeChallenge: q.code_challenge,
        codeChallengeMethod: q.code_challenge_method,
      });
      if (q.skip_http_redirect === true) return { url };
      return reply.code(302).header('cache-control', 'no-store').redirect(url);
    },
  );

  app.get('/auth/v1/callback', { schema: hidden, onRequest: rateLimited }, async (request, reply) => {
    const raw = request.url.split('?')[1] ?? '';
    const outcome = await sso.callback(new URLSearchParams(raw.split('#')[0]));
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (outcome.kind === 'page')
      return reply
        .code(outcome.status)
        .headers(PAGE_HEADERS)
        .type('text/html; charset=utf-8')
        .send(errorPage(outcome.message, `${deps.publicUrl}/`));
    if (outcome.failure !== undefined) request.log.warn({ failure: outcome.failure }, 'single sign-on failed');
    return reply.code(303).redirect(outcome.location);
  });
}
