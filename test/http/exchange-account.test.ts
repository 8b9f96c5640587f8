/**
 * The link-code exchange names the account the device joined (beside the interface's fields), so
 * the CLI can say whose account it linked to: a code of someone else's account, handed to the
 * waiting command, shows at once. A device token itself reads nothing of its account.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

describe(`the exchange names its account (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  beforeEach(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterEach(async () => t.close());

  const linkByCode = async (who: TestUser, requestId = 'r-1') => {
    const init = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-link-code-init',
      headers: bearer(who.accessToken),
    });
    const code = init.json<{ link_code: string }>().link_code;
    const exchange = () =>
      t.app.inject({
        method: 'POST',
        url: '/functions/svc-link-code-exchange',
        payload: { link_code: code, request_id: requestId, device_name: 'desk' },
      });
    return { first: await exchange(), replay: await exchange() };
  };

  it("answers the interface's fields and the account, the same on a replay", async () => {
    const { first, replay } = await linkByCode(user);
    expect(first.statusCode, first.body).toBe(200);
    const answer = first.json<{ token: string; device_id: string; user_id: string }>();
    expect(answer).toEqual({
      token: expect.stringMatching(/^tt_dev_/),
      device_id: expect.any(String),
      user_id: user.id,
      account: { email: user.email, display_name: null },
    });
    expect(replay.json()).toEqual(answer);
  });

  it("names the code's account, not the one that asked for the link", async () => {
    const other = await signUp(t, 'mallory@example.com');
    const { first } = await linkByCode(other);
    expect(first.json()).toMatchObject({ user_id: other.id, account: { email: 'mallory@example.com' } });
  });

  it('gives a device token no way to read its account', async () => {
    const token = (await linkByCode(user)).first.json<{ token: string }>().token;
    for (const url of ['/auth/v1/user', '/functions/svc-user-status', '/functions/svc-devices']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect([401, 403], `${url} → ${res.statusCode}`).toContain(res.statusCode);
    }
  });
});
