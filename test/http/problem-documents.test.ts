/** Every error is a problem document, with `error` and `message` beside the RFC 9457 members. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

describe(`problem documents (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterAll(async () => t.close());

  it('OPTIONS without the preflight headers is answered like a preflight, never a text/plain 400', async () => {
    for (const url of ['/functions/svc-ingest', '/functions/svc-usage-summary', '/auth/v1/token', '/nowhere']) {
      for (const headers of [{}, { origin: 'https://example.org' }, { 'access-control-request-method': 'GET' }]) {
        const res = await t.app.inject({ method: 'OPTIONS', url, headers });
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}: ${res.body}`).toBe(204);
        expect(res.headers['content-type']).toBeUndefined();
        expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
      }
    }
  });

  it('carries error (= code) and message (= detail) on every kind of problem', async () => {
    const calls = [
      t.app.inject({ method: 'GET', url: '/functions/svc-nope' }),
      t.app.inject({ method: 'DELETE', url: '/functions/svc-ingest' }),
      t.app.inject({ method: 'POST', url: '/functions/svc-ingest', payload: { hourly: [] } }),
      t.app.inject({
        method: 'POST',
        url: '/functions/svc-link-code-exchange',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
      t.app.inject({
        method: 'POST',
        url: '/functions/svc-public-visibility',
        headers: bearer(user.accessToken),
        payload: { enabled: 'yes' },
      }),
      t.app.inject({
        method: 'POST',
        url: '/auth/v1/signup',
        payload: { email: user.email, password: 'correct horse' },
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.headers['content-type']).toContain('application/problem+json');
      const body = res.json<Record<string, unknown>>();
      expect(body.status).toBe(res.statusCode);
      expect(body.error, res.body).toBe(body.code);
      expect(body.message, res.body).toBe(body.detail);
      expect(typeof body.message).toBe('string');
    }
  });
});
