/**
 * getDeviceAccount: a newly linked device learns whose account it joined, so the CLI can say so
 * (a link code of someone else's account, handed to the waiting command, shows at once).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, issueDevice, signIn, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

describe(`getDeviceAccount (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  beforeEach(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterEach(async () => t.close());

  const ask = (token: string) =>
    t.app.inject({ method: 'GET', url: '/functions/svc-device-account', headers: bearer(token) });

  const linkByCode = async (who: TestUser) => {
    const init = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-link-code-init',
      headers: bearer(who.accessToken),
    });
    const exchanged = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-link-code-exchange',
      payload: { link_code: init.json().link_code, request_id: 'r-1', device_name: 'desk' },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    return exchanged.json<{ token: string; device_id: string; user_id: string }>();
  };

  it('tells a device exchanged from a link code its account', async () => {
    const linked = await linkByCode(user);
    const res = await ask(linked.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      user_id: user.id,
      email: user.email,
      display_name: null,
      device_id: linked.device_id,
      device_name: 'desk',
    });
  });

  it('only in the hour after linking; never to another role; a revoked device is 401', async () => {
    const device = await issueDevice(t, user);
    t.clock.advance(60 * 60 * 1000);
    expect((await ask(device.token)).statusCode).toBe(200);
    t.clock.advance(1);
    const late = await ask(device.token);
    expect(late.statusCode).toBe(403);
    expect(late.json().detail).toMatch(/hour after it was linked/);
    user = await signIn(t, user.email); // the first session's token expired meanwhile
    expect((await ask(user.accessToken)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/functions/svc-device-account' })).statusCode).toBe(401);
    const fresh = await issueDevice(t, user, 'fresh');
    await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-revoke',
      headers: bearer(user.accessToken),
      payload: { device_id: fresh.deviceId },
    });
    expect((await ask(fresh.token)).statusCode).toBe(401);
  });
});
