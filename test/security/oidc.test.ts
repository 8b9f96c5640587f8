import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { bearer } from '../helpers/actors.js';
import { ConfigError } from '../../src/config.js';
import { createTestApp, engine, testConfig, type TestApp } from '../helpers/app.js';

const SYMMETRIC = 'a-published-symmetric-key-of-32-bytes!!';

describe('external OpenID Connect configuration', () => {
  it('refuses to start with AUTH_JWKS_URL unless AUTH_ISSUER and AUTH_AUDIENCE are both set', () => {
    const jwks = { AUTH_JWKS_URL: 'https://idp.example/jwks.json' };
    expect(() => testConfig(jwks)).toThrow(ConfigError);
    expect(() => testConfig({ ...jwks, AUTH_ISSUER: 'https://idp.example' })).toThrow(/AUTH_AUDIENCE/);
    expect(() => testConfig({ ...jwks, AUTH_AUDIENCE: 'tokentally' })).toThrow(/AUTH_ISSUER/);
    expect(testConfig({ ...jwks, AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'tokentally' }).auth.audience).toBe(
      'tokentally',
    );
  });
});

describe(`external OpenID Connect tokens (${engine})`, () => {
  let jwks: http.Server;
  let t: TestApp;
  let ecPrivate: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let sign: (sub: string, overrides?: { iss?: string; aud?: string }) => Promise<string>;

  beforeEach(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    // A symmetric key published beside it: a token MAC'd with a published secret proves nothing.
    // An EC key published without "alg": usable with ES384, which is not pinned.
    const ec = await generateKeyPair('ES384');
    ecPrivate = ec.privateKey;
    const ecJwk = { ...(await exportJWK(ec.publicKey)), kid: 'ec-key', use: 'sig' };
    const oct = {
      kty: 'oct',
      k: Buffer.from(SYMMETRIC).toString('base64url'),
      kid: 'sym-key',
      alg: 'HS256',
      use: 'sig',
    };
    jwks = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk, ecJwk, oct] })),
    );
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
    const now = Date.now();
    t = await createTestApp({
      clock: new ManualClock(now),
      env: { AUTH_JWKS_URL: url, AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'tokentally' },
    });
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
    const again = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/user',
      headers: bearer(await sign('external-subject-1')),
    });
    expect(again.json().id).toBe(first.json().id);
    const other = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/user',
      headers: bearer(await sign('external-subject-2')),
    });
    expect(other.json().id).not.toBe(first.json().id);
    const link = await t.app.inject({ method: 'POST', url: '/functions/svc-link-code-init', headers: bearer(token) });
    expect(link.statusCode).toBe(200);
  });

  it('accepts only the pinned signature algorithms (AUTH_ALGORITHMS, RS256 and ES256 by default)', async () => {
    const now = Math.floor(t.clock.now() / 1000);
    const es384 = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES384', kid: 'ec-key' })
      .setSubject('other-alg')
      .setIssuer('https://idp.example')
      .setAudience('tokentally')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(ecPrivate);
    const res = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(es384) });
    expect(res.statusCode, res.body).toBe(401);
    expect(() => testConfig({ AUTH_ALGORITHMS: 'RS256,HS256' })).toThrow(/AUTH_ALGORITHMS/);
  });

  it('accepts only asymmetric signature algorithms from the key set', async () => {
    const now = Math.floor(t.clock.now() / 1000);
    const hmacToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'sym-key' })
      .setSubject('forged')
      .setIssuer('https://idp.example')
      .setAudience('tokentally')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(SYMMETRIC));
    const res = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(hmacToken) });
    expect(res.statusCode, res.body).toBe(401);
  });

  it('refuses tokens of another issuer or audience', async () => {
    for (const token of [await sign('x', { iss: 'https://evil.example' }), await sign('x', { aud: 'someone-else' })]) {
      expect((await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(token) })).statusCode).toBe(
        401,
      );
    }
  });
});
