import { AuthClient } from '@supabase/auth-js';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { REFRESH_REUSE_WINDOW_MS } from '../../src/services/accounts.js';
import { bearer, signUp } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

describe(`sign-in API with the official @supabase/auth-js client (${engine})`, () => {
  let t: TestApp;
  let url: string;

  beforeEach(async () => {
    // auth-js checks token expiry against the real clock, so this server's clock starts at real time.
    t = await createTestApp({ clock: new ManualClock(Date.now()) });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `${address}/auth/v1`;
  });
  afterEach(async () => t.close());

  function client(): InstanceType<typeof AuthClient> {
    return new AuthClient({ url, persistSession: false, autoRefreshToken: false, detectSessionInUrl: false });
  }

  it('signs up, signs in, reads and updates the user, refreshes and signs out', async () => {
    const auth = client();
    const signedUp = await auth.signUp({
      email: 'Ada@Example.com',
      password: 'analytical engine',
      options: { data: { display_name: 'Ada' } },
    });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session?.access_token).toBeTruthy();
    expect(signedUp.data.user?.email).toBe('ada@example.com');
    expect(signedUp.data.user?.user_metadata).toEqual({ display_name: 'Ada' });

    const signedIn = await auth.signInWithPassword({ email: 'ada@example.com', password: 'analytical engine' });
    expect(signedIn.error).toBeNull();
    const session = signedIn.data.session;
    if (!session) throw new Error('no session');
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(3600);

    const got = await auth.getUser(session.access_token);
    expect(got.error).toBeNull();
    expect(got.data.user?.id).toBe(signedUp.data.user?.id);

    await auth.setSession({ access_token: session.access_token, refresh_token: session.refresh_token });
    const updated = await auth.updateUser({
      data: { display_name: 'Countess', avatar_url: 'https://example.com/a.png' },
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toEqual({
      display_name: 'Countess',
      avatar_url: 'https://example.com/a.png',
    });

    const refreshed = await auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(session.refresh_token);

    const out = await auth.signOut();
    expect(out.error).toBeNull();
    const afterSignOut = await client().refreshSession({ refresh_token: refreshed.data.session?.refresh_token ?? '' });
    expect(afterSignOut.error).not.toBeNull();
  });

  it('reports GoTrue-style errors the client can show', async () => {
    const auth = client();
    await auth.signUp({ email: 'dup@example.com', password: 'long enough' });
    const dup = await auth.signUp({ email: 'dup@example.com', password: 'long enough' });
    expect(dup.error?.status).toBe(409);
    expect(dup.error?.code).toBe('user_already_exists');
    const wrong = await auth.signInWithPassword({ email: 'dup@example.com', password: 'not the password' });
    expect(wrong.error?.status).toBe(400);
    expect(wrong.error?.message).toBe('Invalid login credentials.');
  });
});

describe(`sign-in API over HTTP (${engine})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => t.close());

  it.each([
    ['an invalid e-mail', { email: 'not-an-email', password: 'long enough' }, 400],
    ['a short password', { email: 'short@example.com', password: 'short' }, 400],
    ['a missing password', { email: 'short@example.com' }, 400],
    [
      'a non-http avatar',
      { email: 'av@example.com', password: 'long enough', data: { avatar_url: 'javascript:alert(1)' } },
      400,
    ],
  ])('rejects sign-up with %s', async (_name, payload, status) => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/v1/signup', payload });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ status, error_code: expect.any(String), msg: expect.any(String) });
  });

  it('rotates refresh tokens: each works once, and reusing one ends the session', async () => {
    const user = await signUp(t);
    const first = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      payload: { refresh_token: user.refreshToken },
    });
    expect(first.statusCode).toBe(200);
    const next = first.json<{ refresh_token: string }>().refresh_token;
    t.clock.advance(REFRESH_REUSE_WINDOW_MS + 1); // past the window in which a concurrent refresh is answered again
    const replay = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      payload: { refresh_token: user.refreshToken },
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error_code).toBe('refresh_token_already_used');
    const afterReuse = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      payload: { refresh_token: next },
    });
    expect(afterReuse.statusCode).toBe(400);
  });

  it('rejects an unknown grant type and a missing refresh token', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=magic', payload: {} })).statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: {} })).statusCode,
    ).toBe(400);
  });

  it('accepts only valid HS256 user tokens', async () => {
    const user = await signUp(t);
    const key = new TextEncoder().encode(TEST_SECRETS.JWT_SECRET);
    const now = Math.floor(t.clock.now() / 1000);
    const claims = { role: 'authenticated' };
    const expired = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setAudience('authenticated')
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(key);
    const wrongKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setAudience('authenticated')
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode('another secret of sufficient length!!'));
    const hs512 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(user.id)
      .setAudience('authenticated')
      .setExpirationTime(now + 3600)
      .sign(key);
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: user.id, aud: 'authenticated', exp: now + 3600 })).toString(
      'base64url',
    );
    const algNone = `${header}.${payload}.`;
    for (const token of [expired, wrongKey, hs512, algNone, 'garbage']) {
      const res = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(token) });
      expect(res.statusCode, token).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(user.accessToken) })).statusCode,
    ).toBe(200);
    t.clock.advance(3601_000);
    expect(
      (await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(user.accessToken) })).statusCode,
    ).toBe(401);
  });
});

describe(`sign-in rate limit (${engine})`, () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  it('limits sign-up and sign-in per client address with 429 and Retry-After', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
    const attempt = () =>
      t!.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        payload: { email: 'x@example.com', password: 'whatever1' },
      });
    for (let i = 0; i < 3; i += 1) expect((await attempt()).statusCode).toBe(400);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    t.clock.advance(60_000);
    expect((await attempt()).statusCode).toBe(400);
  });
});
