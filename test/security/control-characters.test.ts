/**
 * Control characters (NUL and the rest) are refused with 400 in every string the schemas accept;
 * before, a NUL reached PostgreSQL and came back as a 500.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDeviceBuckets } from '../helpers/stored-usage.js';
import { controlCharacterPath } from '../../src/http/validation.js';
import { bearer, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

const H = '2026-11-01T10:00:00.000Z';

describe('controlCharacterPath', () => {
  it('finds control characters in nested strings and keys, and nothing in ordinary text', () => {
    expect(controlCharacterPath({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toBe('/a/1/c');
    expect(controlCharacterPath({ 'k\u001b': 1 })).toBe('/k\u001b');
    expect(controlCharacterPath('tab\there')).toBe('');
    expect(controlCharacterPath({ name: 'Zoë 😀 — ok', n: 5, nothing: null })).toBeUndefined();
  });
});

describe(`control characters in requests (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  let device: { token: string; deviceId: string };
  beforeEach(async () => {
    t = await createTestApp();
    user = await signUp(t);
    device = await issueDevice(t, user);
  });
  afterEach(async () => t.close());

  const expectRefused = (res: { statusCode: number; body: string; json: () => unknown }, path: string) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      status: 400,
      code: 'invalid_request',
      errors: [{ path, message: 'must not contain control characters' }],
    });
  };

  it('in the sign-in API: e-mail, password sign-in, display names', async () => {
    expectRefused(
      await t.app.inject({
        method: 'POST',
        url: '/auth/v1/signup',
        payload: { email: 'nul\u0000@example.com', password: 'long enough' },
      }),
      '/body/email',
    );
    expectRefused(
      await t.app.inject({
        method: 'POST',
        url: '/auth/v1/signup',
        payload: { email: 'n@example.com', password: 'long enough', data: { display_name: 'A\u0000' } },
      }),
      '/body/data/display_name',
    );
    expectRefused(
      await t.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        payload: { email: `${user.email}\u0000`, password: 'correct horse' },
      }),
      '/body/email',
    );
    expectRefused(
      await t.app.inject({
        method: 'PUT',
        url: '/auth/v1/user',
        headers: bearer(user.accessToken),
        payload: { data: { display_name: 'bell\u0007' } },
      }),
      '/body/data/display_name',
    );
  });

  it('in device names and link-code request ids', async () => {
    expectRefused(
      await t.app.inject({
        method: 'POST',
        url: '/functions/svc-device-token-issue',
        headers: bearer(user.accessToken),
        payload: { device_name: 'lap\u0000top' },
      }),
      '/body/device_name',
    );
    const code = (
      await t.app.inject({ method: 'POST', url: '/functions/svc-link-code-init', headers: bearer(user.accessToken) })
    ).json<{ link_code: string }>().link_code;
    expectRefused(
      await t.app.inject({
        method: 'POST',
        url: '/functions/svc-link-code-exchange',
        payload: { link_code: code, request_id: 'req\u0000' },
      }),
      '/body/request_id',
    );
    expectRefused(
      await t.app.inject({
        method: 'POST',
        url: '/functions/svc-link-code-exchange',
        payload: { link_code: code, request_id: 'req-1', device_name: 'x\u0085' },
      }),
      '/body/device_name',
    );
  });

  it('in uploads: model, project, subscriptions; nothing is stored', async () => {
    const upload = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/functions/svc-ingest', headers: bearer(device.token), payload });
    expectRefused(
      await upload({ hourly: [{ hour_start: H, source: 'codex', model: 'gpt\u0000', total_tokens: 1 }] }),
      '/body/hourly/0/model',
    );
    expectRefused(
      await upload({
        hourly: [{ hour_start: H, source: 'codex', model: 'gpt-5', project_key: 'o/r\u0000', total_tokens: 1 }],
      }),
      '/body/hourly/0/project_key',
    );
    expectRefused(
      await upload({
        hourly: [{ hour_start: H, source: 'codex', model: 'gpt-5', total_tokens: 1 }],
        device_subscriptions: [{ tool: 'codex', planType: 'pro\u0000' }],
      }),
      '/body/device_subscriptions/0/planType',
    );
    expect(await listDeviceBuckets(t.db.kysely, device.deviceId)).toHaveLength(0);
  });

  it('in query strings', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/functions/svc-usage-summary?from=2026-10-01&to=2026-10-31&source=a%00',
      headers: bearer(user.accessToken),
    });
    expectRefused(res, '/querystring/source');
  });
});
