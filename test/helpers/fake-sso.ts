/**
 * @fileoverview Single sign-on providers for tests, in the test process: a real OpenID provider
 * (`oidc-provider`, its development login and consent pages driven over HTTP with a cookie jar) and
 * a tiny fake GitHub (node:http: the OAuth token endpoint, /user and /user/emails).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestIdentity {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export const OIDC_CLIENT = { id: 'tokentally-test', secret: 'oidc-test-secret-0123456789abcdef' };

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface FakeOidc {
  issuer: string;
  /** The accounts by login name (the `sub`); change them between sign-ins. */
  accounts: Map<string, TestIdentity>;
  close(): Promise<void>;
}

/** A real OpenID provider on 127.0.0.1 with one client whose redirect URI is `callbackUrl`. */
export async function startFakeOidc(callbackUrl: string): Promise<FakeOidc> {
  const accounts = new Map<string, TestIdentity>();
  const server = http.createServer();
  const issuer = await listen(server);
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [callbackUrl],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['fake-oidc-cookie-key-0123456789'] },
    findAccount: (_ctx, sub) => {
      const identity = accounts.get(sub);
      return identity === undefined ? undefined : { accountId: sub, claims: () => ({ sub, ...identity }) };
    },
  });
  server.on('request', provider.callback());
  return { issuer, accounts, close: () => close(server) };
}

/**
 * Walks a browser's way from the provider's authorization URL through its login (as `login`) and
 * consent pages, until it redirects to `callbackPrefix`; returns that callback URL.
 */
export async function signInAtProvider(authorizeUrl: string, login: string, callbackPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizeUrl);
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      redirect: 'manual',
      method: form ? 'POST' : 'GET',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: form.toString() } : {}),
    });
    form = undefined;
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      if (url.href.startsWith(callbackPrefix)) return url;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || action === undefined)
      throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url);
    form = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('the provider never redirected to the callback');
}

export interface FakeGithub {
  url: string;
  /** The next sign-in's user and e-mail addresses. */
  user: { id: number; login: string; name: string | null };
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
  /** The codes the authorize page would have given: code → expected PKCE verifier check skipped. */
  issueCode(): string;
  close(): Promise<void>;
}

/** A fake GitHub (OAuth pages and REST API on one address): GITHUB_BASE_URL and GITHUB_API_URL point at it. */
export async function startFakeGithub(): Promise<FakeGithub> {
  const codes = new Set<string>();
  const tokens = new Set<string>();
  let n = 0;
  const fake: FakeGithub = {
    url: '',
    user: { id: 4242, login: 'octo', name: 'Octo Cat' },
    emails: [{ email: 'octo@example.com', primary: true, verified: true }],
    issueCode: () => {
      const code = `gh-code-${++n}`;
      codes.add(code);
      return code;
    },
    close: async () => close(server),
  };
  const server = http.createServer((req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'POST' && path === '/login/oauth/access_token') {
        const form = new URLSearchParams(body);
        const code = form.get('code') ?? '';
        if (!codes.delete(code) || form.get('client_secret') !== 'gh-secret' || !form.get('code_verifier'))
          return json(200, { error: 'bad_verification_code' });
        const token = `gho_${++n}`;
        tokens.add(token);
        return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      }
      const auth = req.headers.authorization ?? '';
      if (!tokens.has(auth.replace(/^Bearer /i, ''))) return json(401, { message: 'Bad credentials' });
      if (path === '/user') return json(200, { ...fake.user, avatar_url: 'https://avatars.example.com/u/4242' });
      if (path === '/user/emails') return json(200, fake.emails);
      return json(404, { message: 'Not Found' });
    });
  });
  fake.url = await listen(server);
  return fake;
}
