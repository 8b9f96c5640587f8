/**
 * Inputs a client can send that once reached a 500: a correctly signed token whose subject names
 * no user, and bodies nested deeper than the bound (docs/decisions.md, "Hostile input").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwtService } from '../../src/security/jwt.js';
import { bearer, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

describe(`hostile input (${engine})`, () => {
  let t: TestApp;
  let deviceToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    deviceToken = (await issueDevice(t, await signUp(t))).token;
  });
  afterAll(async () => t.close());

  const tokenFor = async (sub: string) =>
    (
      await new JwtService(TEST_SECRETS.JWT_SECRET, 3600).sign(
        { sub, email: 'gone@example.com', sessionId: 'hostile' },
        t.clock.now(),
      )
    ).token;

  for (const sub of ['00000000-0000-4000-8000-000000000000', "' OR 1=1 --"]) {
    it(`a signed token for no user (${sub}) is 401 everywhere and "not authenticated" on debugAuth`, async () => {
      const token = await tokenFor(sub);
      const calls = [
        { method: 'POST' as const, url: '/functions/svc-link-code-init' },
        { method: 'POST' as const, url: '/functions/svc-public-visibility', payload: { enabled: true } },
        { method: 'GET' as const, url: '/functions/svc-public-visibility' },
        {
          method: 'POST' as const,
          url: '/functions/svc-device-token-issue',
          payload: { device_name: 'x', platform: 'linux' },
        },
        { method: 'GET' as const, url: '/functions/svc-usage-summary?from=2026-10-01&to=2026-10-31' },
        { method: 'GET' as const, url: '/auth/v1/user' },
      ];
      for (const call of calls) {
        const res = await t.app.inject({ ...call, headers: bearer(token) });
        expect(res.statusCode, `${call.method} ${call.url}: ${res.body}`).toBe(401);
        expect(res.headers['content-type']).toContain('application/problem+json');
      }
      const debug = await t.app.inject({ method: 'GET', url: '/functions/svc-debug-auth', headers: bearer(token) });
      expect(debug.statusCode, debug.body).toBe(200);
      expect(debug.json()).toMatchObject({ hasBearer: true, authOk: false, userId: null });
    });
  }

  const nested = (depth: number) => '['.repeat(depth - 1) + '{}' + ']'.repeat(depth - 1);

  it('an upload nested deeper than 32 levels is 400 and stores nothing; 32 levels is accepted', async () => {
    const deep = `{"hourly":[],"device_subscriptions":[{"tool":"codex","extra":${nested(100_000)}}]}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: { ...bearer(deviceToken), 'content-type': 'application/json' },
      payload: deep,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
    // {} → device_subscriptions [ → entry { → extra: 29 more levels = 32 in all.
    const fine = `{"hourly":[],"device_subscriptions":[{"tool":"codex","extra":${nested(29)}}]}`;
    const ok = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: { ...bearer(deviceToken), 'content-type': 'application/json' },
      payload: fine,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const over = `{"hourly":[],"device_subscriptions":[{"tool":"codex","extra":${nested(30)}}]}`;
    const refused = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: { ...bearer(deviceToken), 'content-type': 'application/json' },
      payload: over,
    });
    expect(refused.statusCode, refused.body).toBe(400);
  });

  it('brackets inside strings do not count as nesting', async () => {
    const text = `{"hourly":[],"device_subscriptions":[{"tool":"${'[{'.repeat(100)}\\"]"}]}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-ingest',
      headers: { ...bearer(deviceToken), 'content-type': 'application/json' },
      payload: text,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
