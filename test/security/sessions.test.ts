/**
 * Sessions that end: an access token stops working once its session has ended (sign-out, refresh
 * token reuse, a password change elsewhere), not at its expiry an hour later; concurrent refreshes
 * of one token share one new session instead of ending it; `PUT /auth/v1/user {password}` changes
 * the password.
 */
import { AuthClient } from '@supabase/auth-js';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { revokeSession } from '../../src/db/queries/users.js';
import { REFRESH_REUSE_WINDOW_MS } from '../../src/services/accounts.js';
import { bearer, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

interface SessionBody {
  access_token: string;
  refresh_token: string;
}

describe(`sessions that end (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => t.close());

  const me = (token: string) => t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(token) });
  const refresh = (token: string) =>
    t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=refresh_token', payload: { refresh_token: token } });
  const signIn = (user: TestUser, password = 'correct horse') =>
    t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: user.email, password },
    });

  it('sign-out ends the access token at once (local: this session only; global: all)', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    const second = (await signIn(user)).json<SessionBody>();
    const third = (await signIn(user)).json<SessionBody>();
    expect((await me(user.accessToken)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth/v1/logout?scope=local', headers: bearer(user.accessToken) }))
        .statusCode,
    ).toBe(204);
    const ended = await me(user.accessToken);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().detail).toContain('session has ended');
    expect((await me(second.access_token)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth/v1/logout', headers: bearer(second.access_token) })).statusCode,
    ).toBe(204);
    expect((await me(second.access_token)).statusCode).toBe(401);
    expect((await me(third.access_token)).statusCode).toBe(401);
  });

  it('a session ended by another server process stops within the few seconds its liveness is cached', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    expect((await me(user.accessToken)).statusCode).toBe(200);
    const sessionId = JSON.parse(Buffer.from(user.accessToken.split('.')[1] ?? '', 'base64url').toString('utf8'))
      .session_id as string;
    await revokeSession(t.db.kysely, sessionId, t.clock.now()); // as another process would
    t.clock.advance(5_001);
    expect((await me(user.accessToken)).statusCode).toBe(401);
  });

  it('refresh-token reuse after the window ends the session and its access tokens', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    const rotated = (await refresh(user.refreshToken)).json<SessionBody>();
    t.clock.advance(REFRESH_REUSE_WINDOW_MS + 1);
    const reuse = await refresh(user.refreshToken);
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error_code).toBe('refresh_token_already_used');
    expect((await me(rotated.access_token)).statusCode).toBe(401);
    expect((await me(user.accessToken)).statusCode).toBe(401);
    expect((await refresh(rotated.refresh_token)).statusCode).toBe(400);
  });

  it('concurrent refreshes of one token get the same new session, and the session goes on', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    const answers = await Promise.all([
      refresh(user.refreshToken),
      refresh(user.refreshToken),
      refresh(user.refreshToken),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const tokens = new Set(answers.map((a) => a.json<SessionBody>().refresh_token));
    expect(tokens.size).toBe(1);
    // A retry a few seconds later, still inside the window, gets it again.
    t.clock.advance(REFRESH_REUSE_WINDOW_MS - 1000);
    expect((await refresh(user.refreshToken)).json<SessionBody>().refresh_token).toBe([...tokens][0]);
    for (const answer of answers) expect((await me(answer.json<SessionBody>().access_token)).statusCode).toBe(200);
    const next = await refresh([...tokens][0] ?? '');
    expect(next.statusCode).toBe(200);
    // Once the successor has been used, the old token is no longer answered, even inside the window.
    expect((await refresh(user.refreshToken)).statusCode).toBe(400);
  });

  it('PUT /auth/v1/user {password} changes the password and ends the other sessions, not this one', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    const other = (await signIn(user)).json<SessionBody>();
    const put = (token: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(token), payload });

    const weak = await put(user.accessToken, { password: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error_code).toBe('weak_password');
    const same = await put(user.accessToken, { password: 'correct horse' });
    expect(same.statusCode).toBe(422);
    expect(same.json().error_code).toBe('same_password');

    const changed = await put(user.accessToken, { password: 'battery staple' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().id).toBe(user.id);
    expect((await signIn(user)).statusCode).toBe(400);
    expect((await signIn(user, 'battery staple')).statusCode).toBe(200);
    expect((await me(other.access_token)).statusCode).toBe(401);
    expect((await refresh(other.refresh_token)).statusCode).toBe(400);
    expect((await me(user.accessToken)).statusCode).toBe(200);
    expect((await refresh(user.refreshToken)).statusCode).toBe(200);
  });
});

describe(`password change with the official @supabase/auth-js client (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('updateUser({password}) works and the new password signs in', async () => {
    t = await createTestApp({ clock: new ManualClock(Date.now()) });
    const url = `${await t.app.listen({ host: '127.0.0.1', port: 0 })}/auth/v1`;
    const auth = new AuthClient({ url, persistSession: false, autoRefreshToken: false, detectSessionInUrl: false });
    await auth.signUp({ email: 'pw@example.com', password: 'first password' });
    const signedIn = await auth.signInWithPassword({ email: 'pw@example.com', password: 'first password' });
    expect(signedIn.error).toBeNull();
    const updated = await auth.updateUser({ password: 'second password' });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.email).toBe('pw@example.com');
    const again = new AuthClient({ url, persistSession: false, autoRefreshToken: false, detectSessionInUrl: false });
    expect(
      (await again.signInWithPassword({ email: 'pw@example.com', password: 'first password' })).error?.status,
    ).toBe(400);
    expect((await again.signInWithPassword({ email: 'pw@example.com', password: 'second password' })).error).toBeNull();
    const weak = await auth.updateUser({ password: 'short' });
    expect(weak.error?.status).toBe(422);
    expect(weak.error?.code).toBe('weak_password');
  });
});
