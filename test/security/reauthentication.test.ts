/**
 * A stolen access token cannot take the account over: `PUT /auth/v1/user {password}` needs the
 * current password (`current_password`) unless the session signed in less than 10 minutes ago,
 * and a refresh never makes a session fresh. The e-mail address cannot be changed at all. Without
 * this, the attacker's new password would also delete the account (deleteAccount asks for it).
 */
import { AuthClient } from '@supabase/auth-js';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { RECENT_SIGN_IN_MS } from '../../src/services/reauthentication.js';
import { bearer, signIn, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

const PASSWORD = 'correct horse';
const ATTACKER = 'attacker picked this';

describe(`changing credentials with an access token (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => t.close());

  const put = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(token), payload });
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(token) });
  const passwordSignIn = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/auth/v1/token?grant_type=password', payload: { email, password } });
  const deleteWith = (user: TestUser, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/functions/svc-account-delete',
      headers: bearer(user.accessToken),
      payload: { password },
    });
  const stale = () => t.clock.advance(RECENT_SIGN_IN_MS + 1);

  it('a token of a session signed in over 10 minutes ago cannot set a password, nor then delete the account', async () => {
    t = await createTestApp();
    const victim = await signUp(t);
    stale();
    const changed = await put(victim.accessToken, { password: ATTACKER, data: { display_name: 'pwned' } });
    expect(changed.statusCode, changed.body).toBe(400);
    expect(changed.json()).toMatchObject({
      error_code: 'current_password_required',
      errors: [{ path: '/body/current_password' }],
    });
    // Nothing changed: the old password signs in, the attacker's does not, the profile is untouched.
    expect((await passwordSignIn(victim.email, PASSWORD)).statusCode).toBe(200);
    expect((await passwordSignIn(victim.email, ATTACKER)).statusCode).toBe(400);
    expect((await me(victim.accessToken)).json().user_metadata).toEqual({});
    // …so the attacker's password cannot delete the account.
    expect((await deleteWith(victim, ATTACKER)).statusCode).toBe(403);
    expect((await me(victim.accessToken)).statusCode).toBe(200);
  });

  it('a wrong current password is refused and changes nothing, even in a fresh session', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    for (const advance of [0, RECENT_SIGN_IN_MS + 1]) {
      t.clock.advance(advance);
      const wrong = await put(user.accessToken, { password: ATTACKER, current_password: 'not the password' });
      expect(wrong.statusCode, wrong.body).toBe(400);
      expect(wrong.json().error_code).toBe('current_password_invalid');
      expect((await passwordSignIn(user.email, PASSWORD)).statusCode).toBe(200);
    }
  });

  it('with the right current password a stale session changes it (and ends the other sessions)', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    const other = await signIn(t, user.email);
    stale();
    const changed = await put(user.accessToken, { password: 'battery staple', current_password: PASSWORD });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await passwordSignIn(user.email, 'battery staple')).statusCode).toBe(200);
    expect((await passwordSignIn(user.email, PASSWORD)).statusCode).toBe(400);
    expect((await me(other.accessToken)).statusCode).toBe(401);
    expect((await me(user.accessToken)).statusCode).toBe(200);
  });

  it('within 10 minutes of a sign-in no current password is needed; a new sign-in is fresh again', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    t.clock.advance(RECENT_SIGN_IN_MS - 1);
    expect((await put(user.accessToken, { password: 'second password' })).statusCode).toBe(200);
    t.clock.advance(60 * 60_000);
    const later = await signIn(t, user.email, 'second password');
    t.clock.advance(RECENT_SIGN_IN_MS - 1);
    expect((await put(later.accessToken, { password: 'third password' })).statusCode).toBe(200);
    expect((await passwordSignIn(user.email, 'third password')).statusCode).toBe(200);
  });

  it('refreshing does not make a session fresh', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    stale();
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      payload: { refresh_token: user.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    const token = refreshed.json<{ access_token: string }>().access_token;
    const changed = await put(token, { password: ATTACKER });
    expect(changed.statusCode, changed.body).toBe(400);
    expect(changed.json().error_code).toBe('current_password_required');
    expect((await passwordSignIn(user.email, PASSWORD)).statusCode).toBe(200);
  });

  it('the e-mail address cannot be changed, from a stale session or a fresh one; the same one is ignored', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    const fresh = await put(user.accessToken, { email: 'mine-now@example.com', current_password: PASSWORD });
    expect(fresh.statusCode, fresh.body).toBe(422);
    expect(fresh.json().error_code).toBe('validation_failed');
    stale();
    const changed = await put(user.accessToken, { email: 'attacker@example.com', data: { display_name: 'pwned' } });
    expect(changed.statusCode, changed.body).toBe(422);
    const now = (await me(user.accessToken)).json<{ email: string; user_metadata: object }>();
    expect(now).toMatchObject({ email: user.email, user_metadata: {} });
    expect((await passwordSignIn('attacker@example.com', PASSWORD)).statusCode).toBe(400);
    const same = await put(user.accessToken, { email: user.email.toUpperCase(), data: { display_name: 'Ada' } });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().user_metadata).toEqual({ display_name: 'Ada' });
  });

  it('profile changes need no current password', async () => {
    t = await createTestApp();
    const user = await signUp(t);
    stale();
    const res = await put(user.accessToken, { data: { display_name: 'Ada' } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('@supabase/auth-js: updateUser({password, current_password}) from a stale session', async () => {
    t = await createTestApp({ clock: new ManualClock(Date.now()) });
    const url = `${await t.app.listen({ host: '127.0.0.1', port: 0 })}/auth/v1`;
    const auth = new AuthClient({ url, persistSession: false, autoRefreshToken: false, detectSessionInUrl: false });
    expect((await auth.signUp({ email: 'reauth@example.com', password: PASSWORD })).error).toBeNull();
    stale();
    const refused = await auth.updateUser({ password: ATTACKER });
    expect(refused.error?.status).toBe(400);
    expect(refused.error?.code).toBe('current_password_required');
    const wrong = await auth.updateUser({ password: ATTACKER, current_password: 'nope nope' });
    expect(wrong.error?.code).toBe('current_password_invalid');
    const updated = await auth.updateUser({ password: 'second password', current_password: PASSWORD });
    expect(updated.error).toBeNull();
    const again = new AuthClient({ url, persistSession: false, autoRefreshToken: false, detectSessionInUrl: false });
    expect(
      (await again.signInWithPassword({ email: 'reauth@example.com', password: 'second password' })).error,
    ).toBeNull();
  });
});
