import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { bearer } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

describe(`external OpenID Connect tokens (${engine})`, () => {
  let jwks: http.Server;
  let t: TestApp;
  let sign: (sub: string, overrides?: { iss?: string; aud?: string }) => Promise<string>;

  beforeEach(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    jwks = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
    const now = Date.now();
    t = await createTestApp({ clock: new ManualClock(now), env: { AUTH_JWKS_URL: url, AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'tokentally' } });
    sign = (sub, overrides = {}) =>
      new SignJWT({ email: 'ext@example.com' })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setSubject(sub)
        .setIssuer(overrides.iss ?? 'https://idp.example')
        .setAudience(overrides.aud ?? 'tokentally')
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor(now / 1000) + 600)
        .sign(privateKey);
  });
  afterEach(async () => {
    await t.close();
    await new Promise((resolve) => jwks.close(resolve));
  });

  it('maps the external subject to one local user, created on first sight', async () => {
    const token = await sign('external-subject-1');
    const first = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(token) });
    expect(first.statusCode, first.body).toBe(200);
    const again = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(await sign('external-subject-1')) });
    expect(again.json().id).toBe(first.json().id);
    const other = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(await sign('external-subject-2')) });
    expect(other.json().id).not.toBe(first.json().id);
    const link = await t.app.inject({ method: 'POST', url: '/functions/svc-link-code-init', headers: bearer(token) });
    expect(link.statusCode).toBe(200);
  });

  it('refuses tokens of another issuer or audience', async () => {
    for (const token of [await sign('x', { iss: 'https://evil.example' }), await sign('x', { aud: 'someone-else' })]) {
      expect((await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(token) })).statusCode).toBe(401);
    }
  });
});
