/**
 * One account cannot mint devices without end (issue: "a user can create any number of device
 * tokens"): a per-user cap on live devices, and a per-user rate on link codes and device tokens.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, TEST_SECRETS, type TestApp } from '../helpers/app.js';

describe('device limits', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const linkCode = (app: TestApp, token: string) =>
    app.app.inject({ method: 'POST', url: '/functions/svc-link-code-init', headers: bearer(token) });
  const exchange = (app: TestApp, code: string, requestId: string) =>
    app.app.inject({
      method: 'POST',
      url: '/functions/svc-link-code-exchange',
      payload: { link_code: code, request_id: requestId },
    });

  it('caps the live devices of one user (MAX_DEVICES_PER_USER) with 409, for issued tokens, new link codes and exchanges', async () => {
    t = await createTestApp({ env: { MAX_DEVICES_PER_USER: '3' } });
    const user = await signUp(t);
    await issueDevice(t, user, 'one');
    const early = await linkCode(t, user.accessToken);
    expect(early.statusCode).toBe(200);
    await issueDevice(t, user, 'two');
    await issueDevice(t, user, 'three');

    const fourth = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-token-issue',
      headers: bearer(user.accessToken),
      payload: {},
    });
    expect(fourth.statusCode, fourth.body).toBe(409);
    expect(fourth.json()).toMatchObject({ status: 409, code: 'conflict' });
    expect((await linkCode(t, user.accessToken)).statusCode).toBe(409);
    // A code created before the cap was reached cannot add a fourth device either.
    expect((await exchange(t, early.json<{ link_code: string }>().link_code, 'req-after-cap')).statusCode).toBe(409);
    const service = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-token-issue',
      headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
      payload: { user_id: user.id },
    });
    expect(service.statusCode).toBe(409);

    // Another user is unaffected.
    await issueDevice(t, await signUp(t), 'theirs');
  });

  it('rate-limits link codes and device tokens per user (RATE_LIMIT_DEVICES_PER_MINUTE), not the service role', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_DEVICES_PER_MINUTE: '3' } });
    const user = await signUp(t);
    for (let i = 0; i < 2; i += 1) expect((await linkCode(t, user.accessToken)).statusCode).toBe(200);
    await issueDevice(t, user);
    const refused = await linkCode(t, user.accessToken);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const issue = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-token-issue',
      headers: bearer(user.accessToken),
      payload: {},
    });
    expect(issue.statusCode).toBe(429);
    // The operator's service role key is not limited; nor is another user.
    const service = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-token-issue',
      headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
      payload: { user_id: user.id },
    });
    expect(service.statusCode).toBe(200);
    expect((await linkCode(t, (await signUp(t)).accessToken)).statusCode).toBe(200);
    // A minute later the user may go on.
    t.clock.advance(60_000);
    expect((await linkCode(t, user.accessToken)).statusCode).toBe(200);
  });
});
