import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';
import { packageInfo } from '../../src/package-info.js';

describe(`HTTP protocol rules (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterAll(async () => t.close());

  it('answers 404 with a problem document for unknown paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/functions/svc-nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      status: 404,
      code: 'not_found',
      title: 'Not found',
      type: expect.any(String),
      detail: expect.any(String),
    });
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/functions/svc-link-code-exchange' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json().code).toBe('method_not_allowed');
    const user = await t.app.inject({ method: 'DELETE', url: '/auth/v1/user' });
    expect(user.headers.allow).toBe('GET, PUT');
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const device = await issueDevice(t, user);
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: { ...bearer(device.token), 'content-type': 'application/json' },
      payload: JSON.stringify({
        hourly: [{ hour_start: '2026-11-01T10:00:00Z', total_tokens: 1, pad: 'x'.repeat(1_100_000) }],
      }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });

  it('ignores a body sent to an operation that takes none', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-link-code-init',
      headers: { ...bearer(user.accessToken), 'content-type': 'text/plain' },
      payload: 'whatever',
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers CORS preflight requests for any origin', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/functions/svc-usage-summary',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-allow-headers'])).toContain('Authorization');
  });

  it('reports health', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', version: packageInfo().version, pricing: { state: 'current' } });
  });

  it('serves the dashboard at /, linking the OpenAPI document for clients without JavaScript', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'tt.example:8787' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('/openapi.json');
    expect(res.body).toContain('<div id="root"></div>'); // the install commands are the dashboard's (test/web)
  });

  it('describes the operations in an OpenAPI 3.1 document of version 0.6.4', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = res.json<{
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { operationId?: string }>>;
      components: { securitySchemes: object };
    }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.6.4');
    const ids = Object.values(doc.paths)
      .flatMap((methods) => Object.values(methods).map((m) => m.operationId))
      .filter(Boolean);
    expect(ids).toEqual(
      expect.arrayContaining([
        'issueDeviceToken',
        'initLinkCode',
        'exchangeLinkCode',
        'ingestUsage',
        'recordSyncPing',
        'debugAuth',
      ]),
    );
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'DeviceToken',
      'ServiceRoleKey',
      'ShareToken',
      'UserJWT',
    ]);
  });

  describe('debugAuth', () => {
    const call = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/functions/svc-debug-auth', headers });

    it('reports an anonymous caller', async () => {
      expect((await call({})).json()).toEqual({
        hasAnonKey: false,
        hasBearer: false,
        authOk: false,
        userId: null,
        error: 'no bearer token sent',
      });
      expect((await call({ apikey: TEST_SECRETS.ANON_KEY })).json()).toMatchObject({ hasAnonKey: true, authOk: false });
      expect((await call({ apikey: 'wrong' })).json()).toMatchObject({ hasAnonKey: false });
    });

    it('reports a valid user', async () => {
      expect((await call(bearer(user.accessToken))).json()).toEqual({
        hasAnonKey: false,
        hasBearer: true,
        authOk: true,
        userId: user.id,
        error: null,
      });
    });

    it('reports a bad bearer with a reason and never a secret', async () => {
      const res = await call(bearer(TEST_SECRETS.SERVICE_ROLE_KEY));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        hasBearer: true,
        authOk: false,
        userId: null,
        error: expect.stringContaining('service role'),
      });
      expect(res.body).not.toContain(TEST_SECRETS.SERVICE_ROLE_KEY);
      expect((await call(bearer('nonsense'))).json()).toMatchObject({
        hasBearer: true,
        authOk: false,
        error: expect.any(String),
      });
    });
  });
});

describe(`logs (${engine})`, () => {
  it('never contain a secret, password or token', async () => {
    const t = await createTestApp();
    try {
      const password = 'a very secret password';
      const signup = await t.app.inject({
        method: 'POST',
        url: '/auth/v1/signup',
        payload: { email: 'logs@example.com', password },
      });
      const session = signup.json<{ access_token: string; refresh_token: string }>();
      const user = { id: '', email: '', accessToken: session.access_token, refreshToken: session.refresh_token };
      await t.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=refresh_token',
        payload: { refresh_token: session.refresh_token },
      });
      const code = (
        await t.app.inject({
          method: 'POST',
          url: '/functions/svc-link-code-init',
          headers: bearer(session.access_token),
        })
      ).json<{ link_code: string }>().link_code;
      const exchanged = (
        await t.app.inject({
          method: 'POST',
          url: '/functions/svc-link-code-exchange',
          payload: { link_code: code, request_id: 'r' },
        })
      ).json<{ token: string }>();
      const device = await issueDevice(t, user);
      await ingest(t, device.token, [{ hour_start: '2026-11-01T10:00:00Z', total_tokens: 5 }]);
      await ingest(t, exchanged.token, [{ hour_start: 'bad', total_tokens: 5 }]);
      await t.app.inject({
        method: 'GET',
        url: '/functions/svc-debug-auth',
        headers: { ...bearer(TEST_SECRETS.SERVICE_ROLE_KEY), apikey: TEST_SECRETS.ANON_KEY },
      });
      await t.app.inject({ method: 'POST', url: '/functions/svc-sync-ping', headers: bearer('tt_dev_wrong') });
      const logs = t.logs.join('');
      expect(logs.length).toBeGreaterThan(0);
      for (const secret of [
        password,
        session.access_token,
        session.refresh_token,
        code,
        exchanged.token,
        device.token,
        ...Object.values(TEST_SECRETS),
      ]) {
        expect(logs).not.toContain(secret);
      }
    } finally {
      await t.close();
    }
  });
});

describe(`health when the database is gone (${engine})`, () => {
  it('answers 503', async () => {
    const t = await createTestApp();
    try {
      await t.db.close();
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
    } finally {
      await t.close();
    }
  });
});
