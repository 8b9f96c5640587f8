/**
 * @fileoverview Instance admins (docs/running-for-a-group.md): who may call the svc-admin-*
 * operations, the users page, disabling an account (its JWT, device token and share token 401 at
 * once, sign-in and refresh `user_banned`, its data kept), admin deletion, the last-admin rule and
 * the invite rate limit, and the password reset link an admin hands over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

const SERVICE = bearer(TEST_SECRETS.SERVICE_ROLE_KEY);

describe(`instance admins (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => t.close());

  const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });
  const update = (who: TestUser | 'service', body: object) =>
    call('POST', '/functions/svc-admin-user-update', who === 'service' ? SERVICE : bearer(who.accessToken), body);

  async function shareToken(user: TestUser): Promise<string> {
    const res = await call('POST', '/functions/svc-public-visibility', bearer(user.accessToken), { enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ share_token: string }>().share_token;
  }

  it('admin operations: 401 without a bearer, 403 for users who are not admins, device and share tokens; admins and the service role pass', async () => {
    t = await createTestApp();
    const admin = await signUp(t);
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    const share = await shareToken(user);
    const operations: Array<['GET' | 'POST', string, object | undefined]> = [
      ['GET', '/functions/svc-admin-users', undefined],
      ['POST', '/functions/svc-admin-user-update', { user_id: admin.id, disabled: true }],
      ['POST', '/functions/svc-admin-user-delete', { user_id: admin.id }],
      ['POST', '/functions/svc-admin-reset-link', { user_id: admin.id }],
      ['POST', '/functions/svc-admin-invite-create', {}],
      ['GET', '/functions/svc-admin-invites', undefined],
      ['POST', '/functions/svc-admin-invite-revoke', { id: admin.id }],
      ['GET', '/functions/svc-admin-settings', undefined],
      ['POST', '/functions/svc-admin-settings', { signup_mode: 'closed' }],
    ];
    for (const [method, url, body] of operations) {
      expect((await call(method, url, {}, body)).statusCode, url).toBe(401);
      for (const token of [user.accessToken, device.token, share]) {
        const res = await call(method, url, bearer(token), body);
        expect(res.statusCode, `${url} ${token.slice(0, 8)}`).toBe(403);
      }
    }
    const refused = await call('GET', '/functions/svc-admin-users', bearer(user.accessToken));
    expect(refused.json().detail).toBe('Only an admin of this server may do this.');
    // Nothing changed by the refused calls.
    const settings = await call('GET', '/functions/svc-admin-settings', bearer(admin.accessToken));
    expect(settings.json()).toEqual({ signup_mode: 'open', signup_email_domains: [] });
    expect((await call('GET', '/functions/svc-admin-users', SERVICE)).statusCode).toBe(200);
  });

  it('lists users with devices, last upload and this UTC month’s tokens and cost; searches by e-mail; pages', async () => {
    t = await createTestApp();
    const admin = await signUp(t, 'boss@example.com');
    t.clock.advance(1000); // listed oldest first
    const user = await signUp(t, 'ada_100%@example.org');
    const device = await issueDevice(t, user);
    await issueDevice(t, user, 'desktop');
    const uploaded = await ingest(t, device.token, [
      { hour_start: '2026-11-01T10:00:00Z', source: 'codex', model: 'gpt-5', input_tokens: 1000, total_tokens: 1500 },
      { hour_start: '2026-10-31T10:00:00Z', source: 'codex', model: 'gpt-5', input_tokens: 500, total_tokens: 700 },
    ]);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const page = await call('GET', '/functions/svc-admin-users', bearer(admin.accessToken));
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json();
    expect([body.total, body.limit, body.offset]).toEqual([2, 50, 0]);
    expect(body.users[0]).toMatchObject({ id: admin.id, email: 'boss@example.com', admin: true, disabled: false });
    expect(body.users[0]).toMatchObject({ devices: 0, last_upload_at: null, tokens_this_month: '0' });
    expect(body.users[1]).toMatchObject({
      id: user.id,
      email: 'ada_100%@example.org',
      devices: 2,
      last_upload_at: new Date(t.clock.now()).toISOString(),
      tokens_this_month: '1500',
      admin: false,
    });
    expect(body.users[1].cost_this_month_usd).toMatch(/^\d+\.\d{6}$/);
    expect(Number(body.users[1].cost_this_month_usd)).toBeGreaterThan(0);
    const search = async (q: string) =>
      (await call('GET', `/functions/svc-admin-users?q=${encodeURIComponent(q)}`, SERVICE))
        .json<{ users: Array<{ id: string }> }>()
        .users.map((u) => u.id);
    expect(await search('BOSS')).toEqual([admin.id]);
    expect(await search('100%')).toEqual([user.id]);
    expect(await search('_')).toEqual([user.id]);
    expect(await search('%')).toEqual([user.id]);
    expect(await search('nobody')).toEqual([]);
    const second = await call('GET', '/functions/svc-admin-users?limit=1&offset=1', SERVICE);
    expect(second.json().users.map((u: { id: string }) => u.id)).toEqual([user.id]);
    expect((await call('GET', '/functions/svc-admin-users?limit=101', SERVICE)).statusCode).toBe(400);
    expect((await call('GET', '/functions/svc-admin-users?bogus=1', SERVICE)).statusCode).toBe(200);
  });

  it('a disabled account: JWT, device token and share token 401 at once, sign-in and refresh user_banned, data kept; enabling restores the tokens', async () => {
    t = await createTestApp();
    const admin = await signUp(t);
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    const share = await shareToken(user);
    t.clock.advance(1000);
    const bucket = { hour_start: '2026-11-01T10:00:00Z', model: 'gpt-5', total_tokens: 7 };
    // Every credential works, and is remembered by the caches, before.
    expect((await ingest(t, device.token, [bucket])).statusCode).toBe(200);
    expect((await call('GET', '/auth/v1/user', bearer(user.accessToken))).statusCode).toBe(200);
    expect((await call('GET', '/functions/svc-public-view-profile', bearer(share))).statusCode).toBe(200);

    const off = await update(admin, { user_id: user.id, disabled: true });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ user_id: user.id, admin: false, disabled: true });
    expect((await call('GET', '/auth/v1/user', bearer(user.accessToken))).statusCode).toBe(401);
    expect((await call('GET', '/functions/svc-usage-summary', bearer(user.accessToken))).statusCode).toBe(401);
    expect((await ingest(t, device.token, [bucket])).statusCode).toBe(401);
    expect((await call('GET', '/functions/svc-public-view-profile', bearer(share))).statusCode).toBe(401);
    const signIn = await call(
      'POST',
      '/auth/v1/token?grant_type=password',
      {},
      {
        email: user.email,
        password: 'correct horse',
      },
    );
    expect([signIn.statusCode, signIn.json().error_code]).toEqual([400, 'user_banned']);
    const wrong = await call(
      'POST',
      '/auth/v1/token?grant_type=password',
      {},
      { email: user.email, password: 'wrong one!' },
    );
    expect(wrong.json().error_code).toBe('invalid_credentials');
    const refresh = await call(
      'POST',
      '/auth/v1/token?grant_type=refresh_token',
      {},
      {
        refresh_token: user.refreshToken,
      },
    );
    expect(refresh.statusCode).toBe(400);
    const listed = await call('GET', `/functions/svc-admin-users?q=${encodeURIComponent(user.email)}`, SERVICE);
    expect(listed.json().users[0]).toMatchObject({ id: user.id, disabled: true, tokens_this_month: '7' });

    expect((await update(admin, { user_id: user.id, disabled: false })).json().disabled).toBe(false);
    expect((await ingest(t, device.token, [bucket])).statusCode).toBe(200);
    expect((await call('GET', '/functions/svc-public-view-profile', bearer(share))).statusCode).toBe(200);
    // Its sessions stay ended: it signs in again.
    expect((await call('GET', '/auth/v1/user', bearer(user.accessToken))).statusCode).toBe(401);
    const back = await call(
      'POST',
      '/auth/v1/token?grant_type=password',
      {},
      { email: user.email, password: 'correct horse' },
    );
    expect(back.statusCode).toBe(200);
  });

  it('makes and revokes admins; the last enabled admin cannot disable, demote or delete themselves (409)', async () => {
    t = await createTestApp();
    const admin = await signUp(t);
    const other = await signUp(t);
    for (const body of [
      { user_id: admin.id, disabled: true },
      { user_id: admin.id, admin: false },
    ]) {
      const res = await update(admin, body);
      expect([res.statusCode, res.json().code]).toEqual([409, 'conflict']);
    }
    const selfDelete = await call('POST', '/functions/svc-admin-user-delete', bearer(admin.accessToken), {
      user_id: admin.id,
    });
    expect(selfDelete.statusCode).toBe(409);
    // The service role is held to the same rule.
    expect((await update('service', { user_id: admin.id, admin: false })).statusCode).toBe(409);
    expect((await call('GET', '/auth/v1/user', bearer(admin.accessToken))).json().app_metadata.role).toBe('admin');

    expect((await update(admin, { user_id: other.id, admin: true })).json()).toEqual({
      user_id: other.id,
      admin: true,
      disabled: false,
    });
    expect((await call('GET', '/functions/svc-admin-users', bearer(other.accessToken))).statusCode).toBe(200);
    expect((await update(admin, { user_id: admin.id, admin: false })).statusCode).toBe(200);
    expect((await call('GET', '/functions/svc-admin-users', bearer(admin.accessToken))).statusCode).toBe(403);
    expect((await update(other, { user_id: other.id, disabled: true })).statusCode).toBe(409);
    expect((await update(other, { user_id: '00000000-0000-4000-8000-000000000000', admin: true })).statusCode).toBe(
      404,
    );
  });

  it('two admins demoting each other at once: one stays', async () => {
    t = await createTestApp();
    const a = await signUp(t);
    const b = await signUp(t);
    expect((await update(a, { user_id: b.id, admin: true })).statusCode).toBe(200);
    const answers = await Promise.all([
      update(a, { user_id: a.id, admin: false }),
      update(b, { user_id: b.id, admin: false }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const admins = await t.db.kysely.selectFrom('users').select('id').where('admin_since', 'is not', null).execute();
    expect(admins).toHaveLength(1);
  });

  it('deletes an account as deleteAccount does: its tokens 401 at once', async () => {
    t = await createTestApp();
    const admin = await signUp(t);
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    expect((await ingest(t, device.token, [{ hour_start: '2026-11-01T10:00:00Z', total_tokens: 3 }])).statusCode).toBe(
      200,
    );
    const res = await call('POST', '/functions/svc-admin-user-delete', bearer(admin.accessToken), { user_id: user.id });
    expect(res.json()).toEqual({ deleted: true, user_id: user.id });
    expect((await call('GET', '/auth/v1/user', bearer(user.accessToken))).statusCode).toBe(401);
    expect((await ingest(t, device.token, [{ hour_start: '2026-11-01T10:00:00Z', total_tokens: 3 }])).statusCode).toBe(
      401,
    );
    expect(await t.db.kysely.selectFrom('usage_daily').select('user_id').execute()).toEqual([]);
    const again = await call('POST', '/functions/svc-admin-user-delete', SERVICE, { user_id: user.id });
    expect(again.statusCode).toBe(404);
  });

  it('invite creation is rate limited per admin', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_INVITES_PER_MINUTE: '2' } });
    const admin = await signUp(t);
    const create = () => call('POST', '/functions/svc-admin-invite-create', bearer(admin.accessToken), {});
    expect((await create()).statusCode).toBe(200);
    expect((await create()).statusCode).toBe(200);
    const third = await create();
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    expect((await call('POST', '/functions/svc-admin-invite-create', SERVICE, {})).statusCode).toBe(200);
  });

  it('makes a password reset link for an account: single use, from PUBLIC_URL, a new one voids the older', async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://tokentally.example.com' } });
    const admin = await signUp(t);
    const user = await signUp(t, 'forgetful@example.com', 'old password');
    const make = () => call('POST', '/functions/svc-admin-reset-link', bearer(admin.accessToken), { user_id: user.id });
    const first = await make();
    expect(first.statusCode, first.body).toBe(200);
    const link = new URL(first.json<{ url: string; expires_at: string }>().url);
    expect(link.origin + link.pathname).toBe('https://tokentally.example.com/auth/v1/verify');
    expect(first.json<{ expires_at: string }>().expires_at).toBe(new Date(t.clock.now() + 3_600_000).toISOString());
    const second = new URL((await make()).json<{ url: string }>().url);
    const verify = (url: URL) => t.app.inject({ method: 'GET', url: url.pathname + url.search });
    // The older link stopped working when the new one was made; the new one works once.
    expect((await verify(link)).headers.location).toContain('error_code=otp_expired');
    const used = await verify(second);
    expect(used.statusCode).toBe(303);
    expect(used.headers.location).toContain('type=recovery');
    expect((await verify(second)).headers.location).toContain('error_code=otp_expired');
    const unknown = await call('POST', '/functions/svc-admin-reset-link', bearer(admin.accessToken), {
      user_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    const extra = await call('POST', '/functions/svc-admin-reset-link', bearer(admin.accessToken), {
      user_id: user.id,
      note: 'x',
    });
    expect(extra.statusCode).toBe(400);
  });
});
