/**
 * @fileoverview Who may sign up (docs/running-for-a-group.md): the modes, the e-mail domain list
 * and invites (bound, expired, revoked, used up, malformed; uses under concurrency), the first
 * account becoming admin (also under concurrency), GoTrue's error shapes (with auth-js too) and
 * the stored settings outliving a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { AuthClient } from '@supabase/auth-js';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { openPostgres, openSqlite, type Db } from '../../src/db/connect.js';
import { bearer } from '../helpers/actors.js';
import {
  capturingLogger,
  createTestApp,
  dropTestSchema,
  engine,
  T0,
  TEST_SECRETS,
  testConfig,
  testDatabaseUrl,
  type TestApp,
} from '../helpers/app.js';

const PASSWORD = 'correct horse';
const SERVICE = bearer(TEST_SECRETS.SERVICE_ROLE_KEY);

function signUpRequest(t: TestApp, email: string, data?: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/auth/v1/signup',
    payload: { email, password: PASSWORD, ...(data ? { data } : {}) },
  });
}

async function invite(
  t: TestApp,
  body: Record<string, unknown> = {},
): Promise<{ id: string; invite_token: string; url: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/functions/svc-admin-invite-create',
    headers: SERVICE,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function setSettings(t: TestApp, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/functions/svc-admin-settings',
    headers: SERVICE,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ signup_mode: string; signup_email_domains: string[] }>();
}

function expectRefused(res: Awaited<ReturnType<typeof signUpRequest>>, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ error_code: string; msg: string; detail: string }>();
  expect(body.error_code).toBe(code);
  expect(body.msg).toBe(body.detail);
}

async function disableSignup(t: TestApp): Promise<boolean> {
  return (await t.app.inject({ method: 'GET', url: '/auth/v1/settings' })).json<{ disable_signup: boolean }>()
    .disable_signup;
}

describe(`who may sign up (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('open by default: anyone signs up; the first account is the admin, the next ones are not', async () => {
    t = await createTestApp();
    expect(await disableSignup(t)).toBe(false);
    const first = await signUpRequest(t, 'first@example.com');
    expect(first.statusCode).toBe(200);
    expect(first.json().user.app_metadata.role).toBe('admin');
    const second = await signUpRequest(t, 'second@example.org');
    expect(second.json().user.app_metadata.role).toBe('user');
    const me = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(first.json().access_token) });
    expect(me.json().app_metadata).toEqual({ provider: 'email', providers: ['email'], role: 'admin' });
  });

  it('closed: every sign-up is 403 signup_disabled, an invite too; the operator still creates accounts', async () => {
    t = await createTestApp({ env: { SIGNUP_MODE: 'closed' } });
    expect(await disableSignup(t)).toBe(true);
    expectRefused(await signUpRequest(t, 'a@example.com'), 403, 'signup_disabled');
    const inv = await invite(t);
    expectRefused(await signUpRequest(t, 'a@example.com', { invite_token: inv.invite_token }), 403, 'signup_disabled');
    const created = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/admin/users',
      headers: SERVICE,
      payload: { email: 'Boss@Example.com', password: PASSWORD, app_metadata: { role: 'admin' } },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().app_metadata.role).toBe('admin');
    // Only the service role creates accounts so.
    const boss = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: 'boss@example.com', password: PASSWORD },
    });
    const asUser = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/admin/users',
      headers: bearer(boss.json().access_token),
      payload: { email: 'other@example.com', password: PASSWORD },
    });
    expect(asUser.statusCode).toBe(403);
  });

  it('invite mode: no invite 403; a live invite signs up once and is not kept in the profile', async () => {
    t = await createTestApp({ env: { SIGNUP_MODE: 'invite' } });
    expect(await disableSignup(t)).toBe(true);
    expectRefused(await signUpRequest(t, 'a@example.com'), 403, 'signup_disabled');
    const inv = await invite(t);
    expect(inv.url).toBe(`http://127.0.0.1:8787/sign-up?invite=${inv.invite_token}`);
    expect(inv.invite_token).toMatch(/^tt_inv_[A-Za-z0-9_-]{43}$/);
    const ok = await signUpRequest(t, 'a@example.com', { invite_token: inv.invite_token, display_name: 'Ada' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user.user_metadata).toEqual({ display_name: 'Ada' });
    // The first account of the instance: its admin, although it came with an invite.
    expect(ok.json().user.app_metadata.role).toBe('admin');
    const me = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(ok.json().access_token) });
    expect(JSON.stringify(me.json())).not.toContain(inv.invite_token);
    const stored = await t.db.kysely.selectFrom('invites').selectAll().execute();
    expect(JSON.stringify(stored, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      inv.invite_token,
    );
    expectRefused(await signUpRequest(t, 'b@example.com', { invite_token: inv.invite_token }), 403, 'invite_invalid');
  });

  it('opening an invite link does not write its token to the log', async () => {
    t = await createTestApp({ env: { SIGNUP_MODE: 'invite' } });
    const inv = await invite(t);
    const path = new URL(inv.url).pathname + new URL(inv.url).search;
    await t.app.inject({ method: 'GET', url: path });
    await t.app.inject({ method: 'GET', url: `/functions/svc-admin-users?q=${inv.invite_token}` });
    const lines = t.logs.join('');
    expect(lines).toContain('/sign-up?invite=tt_inv_…');
    expect(lines).not.toContain(inv.invite_token.slice(7));
  });

  it('expired, revoked, unknown and e-mail-bound invites are 403 invite_invalid; a malformed one 400', async () => {
    t = await createTestApp({ env: { SIGNUP_MODE: 'invite' } });
    const expiring = await invite(t, { expires_in_hours: 1 });
    const revoked = await invite(t);
    const bound = await invite(t, { email: 'Bound@Example.com', max_uses: 5 });
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-admin-invite-revoke',
      headers: SERVICE,
      payload: { id: revoked.id },
    });
    expect(revoke.statusCode).toBe(200);
    t.clock.advance(3_600_000);
    expectRefused(
      await signUpRequest(t, 'a@example.com', { invite_token: expiring.invite_token }),
      403,
      'invite_invalid',
    );
    expectRefused(
      await signUpRequest(t, 'a@example.com', { invite_token: revoked.invite_token }),
      403,
      'invite_invalid',
    );
    const unknown = `tt_inv_${randomBytes(32).toString('base64url')}`;
    expectRefused(await signUpRequest(t, 'a@example.com', { invite_token: unknown }), 403, 'invite_invalid');
    expectRefused(
      await signUpRequest(t, 'other@example.com', { invite_token: bound.invite_token }),
      403,
      'invite_invalid',
    );
    const malformed = await signUpRequest(t, 'a@example.com', { invite_token: 'not-an-invite' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].path).toBe('/body/data/invite_token');
    expect(malformed.json().error_code).toBe('validation_failed');
    expect((await signUpRequest(t, 'bound@example.com', { invite_token: bound.invite_token })).statusCode).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: '/functions/svc-admin-invites', headers: SERVICE });
    const statuses = list.json<{ invites: Array<{ id: string; status: string; uses: number }> }>().invites;
    expect(Object.fromEntries(statuses.map((i) => [i.id, [i.status, i.uses]]))).toEqual({
      [expiring.id]: ['expired', 0],
      [revoked.id]: ['revoked', 0],
      [bound.id]: ['live', 1],
    });
    expect(JSON.stringify(list.json())).not.toContain('tt_inv_');
  });

  it('the domain list: other domains 403 email_address_not_authorized, exact domains only; an invite goes past it', async () => {
    t = await createTestApp({ env: { SIGNUP_EMAIL_DOMAINS: 'Example.com, @corp.test' } });
    expect(await disableSignup(t)).toBe(false);
    expectRefused(await signUpRequest(t, 'a@other.org'), 403, 'email_address_not_authorized');
    expectRefused(await signUpRequest(t, 'a@sub.example.com'), 403, 'email_address_not_authorized');
    expect((await signUpRequest(t, 'a@example.com')).statusCode).toBe(200);
    expect((await signUpRequest(t, 'b@corp.test')).statusCode).toBe(200);
    const inv = await invite(t);
    expect((await signUpRequest(t, 'a@other.org', { invite_token: inv.invite_token })).statusCode).toBe(200);
    // Invite mode with a domain list: the list does not open sign-up without an invite.
    await setSettings(t, { signup_mode: 'invite' });
    expectRefused(await signUpRequest(t, 'c@example.com'), 403, 'signup_disabled');
  });

  it('the refusals reach auth-js as AuthApiError with the GoTrue code and status', async () => {
    t = await createTestApp({ clock: new ManualClock(Date.now()), env: { SIGNUP_EMAIL_DOMAINS: 'example.com' } });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const auth = new AuthClient({
      url: `${address}/auth/v1`,
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
    });
    const outside = await auth.signUp({ email: 'a@other.org', password: PASSWORD });
    expect([outside.error?.status, outside.error?.code]).toEqual([403, 'email_address_not_authorized']);
    await setSettings(t, { signup_mode: 'invite' });
    const none = await auth.signUp({ email: 'a@example.com', password: PASSWORD });
    expect([none.error?.status, none.error?.code]).toEqual([403, 'signup_disabled']);
    const inv = await invite(t);
    const ok = await auth.signUp({
      email: 'a@other.org',
      password: PASSWORD,
      options: { data: { invite_token: inv.invite_token } },
    });
    expect(ok.error).toBeNull();
    expect(ok.data.user?.user_metadata).toEqual({});
  });

  it('two first sign-ups at once: one admin', async () => {
    t = await createTestApp();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => signUpRequest(t, `racer${i}@example.com`)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const admins = answers.filter((a) => a.json().user.app_metadata.role === 'admin');
    expect(admins).toHaveLength(1);
    const stored = await t.db.kysely.selectFrom('users').select('id').where('admin_since', 'is not', null).execute();
    expect(stored.map((r) => r.id)).toEqual([admins[0]?.json().user.id]);
  });

  it('an invite of 3 uses signs up 3 of 8 concurrent sign-ups', async () => {
    t = await createTestApp({ env: { SIGNUP_MODE: 'invite' } });
    const inv = await invite(t, { max_uses: 3 });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signUpRequest(t, `many${i}@example.com`, { invite_token: inv.invite_token })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    for (const refused of answers.filter((a) => a.statusCode !== 200)) expectRefused(refused, 403, 'invite_invalid');
    const row = await t.db.kysely.selectFrom('invites').select('uses').executeTakeFirstOrThrow();
    expect(Number(row.uses)).toBe(3);
    expect(await t.db.kysely.selectFrom('users').select('id').execute()).toHaveLength(3);
  });

  it('a duplicate e-mail does not spend an invite use', async () => {
    t = await createTestApp({ env: { SIGNUP_MODE: 'invite' } });
    const inv = await invite(t, { max_uses: 2 });
    expect((await signUpRequest(t, 'a@example.com', { invite_token: inv.invite_token })).statusCode).toBe(200);
    expectRefused(
      await signUpRequest(t, 'a@example.com', { invite_token: inv.invite_token }),
      409,
      'user_already_exists',
    );
    expect((await signUpRequest(t, 'b@example.com', { invite_token: inv.invite_token })).statusCode).toBe(200);
  });

  it('settings and invite bodies are strict and bounded: unknown fields and bad values 400, nothing changed', async () => {
    t = await createTestApp();
    const bad = [
      { url: '/functions/svc-admin-settings', payload: { signup_mode: 'open', extra: 1 } },
      { url: '/functions/svc-admin-settings', payload: { signup_mode: 'sometimes' } },
      { url: '/functions/svc-admin-settings', payload: { signup_email_domains: ['not a domain'] } },
      { url: '/functions/svc-admin-settings', payload: { signup_email_domains: Array(101).fill('a.com') } },
      { url: '/functions/svc-admin-invite-create', payload: { max_uses: 0 } },
      { url: '/functions/svc-admin-invite-create', payload: { expires_in_hours: 9000 } },
      { url: '/functions/svc-admin-invite-create', payload: { email: 'nope' } },
      { url: '/functions/svc-admin-invite-create', payload: { note: 'x' } },
      { url: '/functions/svc-admin-user-update', payload: { user_id: 'x' } },
      { url: '/functions/svc-admin-invite-revoke', payload: {} },
    ];
    for (const { url, payload } of bad) {
      const res = await t.app.inject({ method: 'POST', url, headers: SERVICE, payload });
      expect(res.statusCode, `${url} ${JSON.stringify(payload).slice(0, 80)}`).toBe(400);
    }
    const settings = await t.app.inject({ method: 'GET', url: '/functions/svc-admin-settings', headers: SERVICE });
    expect(settings.json()).toEqual({ signup_mode: 'open', signup_email_domains: [] });
    expect(await t.db.kysely.selectFrom('invites').select('id').execute()).toEqual([]);
  });
});

describe(`sign-up settings across a restart (${engine})`, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()?.();
  });

  /** Opens the same database again each time. */
  function sameDatabase(): () => Promise<Db> {
    const url = testDatabaseUrl;
    if (url !== undefined) {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      cleanups.push(() => dropTestSchema(schema));
      return () => openPostgres(url, 3, schema);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-signup-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    return async () => openSqlite(path.join(dir, 'tokentally.db'));
  }

  async function start(open: () => Promise<Db>, env: Record<string, string>) {
    const built = await createApp({
      config: testConfig(env),
      db: await open(),
      clock: new ManualClock(T0),
      logger: capturingLogger([]),
    });
    const settings = async () =>
      (await built.app.inject({ method: 'GET', url: '/functions/svc-admin-settings', headers: SERVICE })).json();
    return { built, settings };
  }

  it('the environment gives the first value; once saved, the stored one rules', async () => {
    const open = sameDatabase();
    const first = await start(open, { SIGNUP_MODE: 'invite', SIGNUP_EMAIL_DOMAINS: 'example.com' });
    expect(await first.settings()).toEqual({ signup_mode: 'invite', signup_email_domains: ['example.com'] });
    await first.built.close();
    // Nothing saved yet: a changed environment changes it.
    const second = await start(open, { SIGNUP_MODE: 'closed' });
    expect(await second.settings()).toEqual({ signup_mode: 'closed', signup_email_domains: [] });
    const saved = await second.built.app.inject({
      method: 'POST',
      url: '/functions/svc-admin-settings',
      headers: SERVICE,
      payload: { signup_mode: 'open', signup_email_domains: ['corp.test'] },
    });
    expect(saved.json()).toEqual({ signup_mode: 'open', signup_email_domains: ['corp.test'] });
    await second.built.close();
    const third = await start(open, { SIGNUP_MODE: 'closed' });
    expect(await third.settings()).toEqual({ signup_mode: 'open', signup_email_domains: ['corp.test'] });
    const signUp = await third.built.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: { email: 'a@corp.test', password: PASSWORD },
    });
    expect(signUp.statusCode).toBe(200);
    await third.built.close();
  });
});
