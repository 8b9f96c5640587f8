import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

describe(`public sharing (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;

  beforeEach(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterEach(async () => t.close());

  const getVisibility = (token: string) =>
    t.app.inject({ method: 'GET', url: '/functions/svc-public-visibility', headers: bearer(token) });
  const setVisibility = (token: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/functions/svc-public-visibility',
      headers: bearer(token),
      payload: payload as Record<string, unknown>,
    });
  const profile = (token?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/functions/svc-public-view-profile',
      headers: token === undefined ? {} : bearer(token),
    });

  async function setProfile(u: TestUser, data: Record<string, string | null>) {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(u.accessToken),
      payload: { data },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('is off by default, on with a share token returned by GET and POST, off revokes it at once', async () => {
    const initial = await getVisibility(user.accessToken);
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({ enabled: false });

    const on = await setVisibility(user.accessToken, { enabled: true });
    expect(on.statusCode, on.body).toBe(200);
    const { share_token: token, updated_at } = on.json<{ share_token: string; updated_at: string }>();
    expect(token).toMatch(/^tt_share_[A-Za-z0-9_-]{43}$/);
    expect(updated_at).toBe(new Date(t.clock.now()).toISOString());
    expect(token).not.toContain(user.id);
    expect((await getVisibility(user.accessToken)).json()).toEqual({ enabled: true, updated_at, share_token: token });

    // Setting it on again keeps the token.
    t.clock.advance(1000);
    expect((await setVisibility(user.accessToken, { enabled: true })).json()).toEqual({
      enabled: true,
      updated_at,
      share_token: token,
    });
    expect((await profile(token)).statusCode).toBe(200);

    const off = await setVisibility(user.accessToken, { enabled: false });
    expect(off.json()).toEqual({ enabled: false, updated_at: new Date(t.clock.now()).toISOString() });
    const dead = await profile(token);
    expect(dead.statusCode).toBe(401);
    expect(dead.headers['www-authenticate']).toBe('Bearer');

    // Re-enabling makes a new token; the old one stays dead.
    const again = (await setVisibility(user.accessToken, { enabled: true })).json<{ share_token: string }>();
    expect(again.share_token).not.toBe(token);
    expect((await profile(token)).statusCode).toBe(401);
    expect((await profile(again.share_token)).statusCode).toBe(200);
  });

  it('never stores the share token in clear', async () => {
    const { share_token: token } = (await setVisibility(user.accessToken, { enabled: true })).json<{
      share_token: string;
    }>();
    const rows = await t.db.kysely.selectFrom('public_views').selectAll().execute();
    const stored = JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    expect(stored).not.toContain(token.slice('tt_share_'.length));
  });

  it('shows a privacy-safe profile: no e-mail-like names, only http(s) avatars', async () => {
    await setProfile(user, { display_name: 'Ada', avatar_url: 'https://example.com/a.png' });
    const { share_token: token } = (await setVisibility(user.accessToken, { enabled: true })).json<{
      share_token: string;
    }>();
    expect((await profile(token)).json()).toEqual({
      display_name: 'Ada',
      avatar_url: 'https://example.com/a.png',
      user_id: user.id,
    });

    await setProfile(user, { display_name: 'ada@example.com' });
    await t.db.kysely
      .updateTable('users')
      .set({ avatar_url: 'javascript:alert(1)' })
      .where('id', '=', user.id)
      .execute();
    const safe = (await profile(token)).json();
    expect(safe).toEqual({ display_name: null, avatar_url: null, user_id: user.id });
    expect(JSON.stringify(safe)).not.toContain(user.email);

    await setProfile(user, { display_name: 'Ada <ada@example.com>' });
    expect((await profile(token)).json().display_name).toBeNull();
  });

  it('applies the access rules of each operation', async () => {
    const { share_token: token } = (await setVisibility(user.accessToken, { enabled: true })).json<{
      share_token: string;
    }>();
    const device = await issueDevice(t, user);
    expect((await getVisibility(token)).statusCode).toBe(403);
    expect((await getVisibility(device.token)).statusCode).toBe(403);
    expect((await getVisibility(TEST_SECRETS.SERVICE_ROLE_KEY)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/functions/svc-public-visibility' })).statusCode).toBe(401);
    expect((await profile()).statusCode).toBe(401);
    expect((await profile('tt_share_' + 'x'.repeat(43))).statusCode).toBe(401);
    expect((await profile(user.accessToken)).statusCode).toBe(403);
    expect((await profile(device.token)).statusCode).toBe(403);
  });

  it('validates the body strictly', async () => {
    expect((await setVisibility(user.accessToken, { enabled: 'yes' })).statusCode).toBe(400);
    expect((await setVisibility(user.accessToken, {})).statusCode).toBe(400);
    expect((await setVisibility(user.accessToken, { enabled: true, extra: 1 })).statusCode).toBe(400);
    const text = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-public-visibility',
      headers: { ...bearer(user.accessToken), 'content-type': 'text/plain' },
      payload: 'enabled',
    });
    expect(text.statusCode).toBe(415);
  });

  it('keeps each user to their own token', async () => {
    const other = await signUp(t);
    const mine = (await setVisibility(user.accessToken, { enabled: true })).json<{ share_token: string }>();
    const theirs = (await setVisibility(other.accessToken, { enabled: true })).json<{ share_token: string }>();
    expect(mine.share_token).not.toBe(theirs.share_token);
    expect((await profile(theirs.share_token)).json().user_id).toBe(other.id);
    await setVisibility(other.accessToken, { enabled: false });
    expect((await profile(mine.share_token)).statusCode).toBe(200);
  });
});
