/**
 * Password recovery's edges: mails per address (1 a minute, 5 an hour, the same for unknown
 * addresses) and per client, no SMTP configured (200, nothing sent, the settings say so), an SMTP
 * login refused (logged without the credentials), a password changed since the link was made,
 * the admin command's link, and auth-js's resetPasswordForEmail against a listening server.
 */
import type { AddressInfo } from 'node:net';
import { GoTrueClient } from '@supabase/auth-js';
import { afterEach, describe, expect, it } from 'vitest';
import { builtAppContext, runAdminCommand } from '../../src/admin/commands.js';
import { purgeSpentCredentials } from '../../src/jobs/purge-credentials.js';
import { bearer, signUp } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { linkIn, SMTP_PASS, startSmtp, type TestSmtp } from '../helpers/smtp.js';

describe(`password recovery limits and settings (${engine})`, () => {
  let t: TestApp | undefined;
  let smtp: TestSmtp | undefined;
  afterEach(async () => {
    await t?.close();
    await smtp?.close();
    t = undefined;
    smtp = undefined;
  });

  const recover = (app: TestApp, email: string, ip = '203.0.113.7') =>
    app.app.inject({ method: 'POST', url: '/auth/v1/recover', payload: { email }, remoteAddress: ip });
  const follow = async (app: TestApp, link: string) => {
    const url = new URL(link);
    const res = await app.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(res.statusCode).toBe(303);
    return new URLSearchParams(new URL(res.headers.location as string).hash.slice(1));
  };

  it('mails an address at most once a minute and five times an hour, whether or not it has an account', async () => {
    smtp = await startSmtp();
    const app = (t = await createTestApp({ env: { SMTP_URL: smtp.url } }));
    await signUp(app, 'known@example.com', 'old password');
    for (const email of ['known@example.com', 'unknown@example.com']) {
      expect((await recover(app, email)).statusCode).toBe(200);
      const second = await recover(app, email, '198.51.100.9'); // another client: the address's limit
      expect(second.statusCode).toBe(429);
      expect(second.json().error_code).toBe('over_email_send_rate_limit');
      expect(second.headers['retry-after']).toBe('60');
    }
    for (let i = 0; i < 4; i++) {
      app.clock.advance(60_000);
      expect((await recover(app, 'known@example.com')).statusCode).toBe(200);
    }
    app.clock.advance(60_000);
    const sixth = await recover(app, 'KNOWN@example.com');
    expect(sixth.statusCode).toBe(429);
    await app.recovery.idle();
    expect(smtp.received).toHaveLength(5);
    app.clock.advance(60 * 60_000);
    expect((await recover(app, 'known@example.com')).statusCode).toBe(200);
  });

  it('limits recovery requests per client address (the sign-in limit)', async () => {
    smtp = await startSmtp();
    const app = (t = await createTestApp({ env: { SMTP_URL: smtp.url, RATE_LIMIT_AUTH_PER_MINUTE: '3' } }));
    for (let i = 0; i < 3; i++) expect((await recover(app, `a${i}@example.com`)).statusCode).toBe(200);
    const fourth = await recover(app, 'a9@example.com');
    expect(fourth.statusCode).toBe(429);
    expect((await recover(app, 'a9@example.com', '198.51.100.9')).statusCode).toBe(200);
  });

  it('without SMTP_URL answers 200, sends nothing, and says so in the settings; an admin link still works', async () => {
    smtp = await startSmtp(); // listening, but not configured
    const app = (t = await createTestApp());
    const user = await signUp(app, 'solo@example.com', 'old password');
    const settings = await app.app.inject({ method: 'GET', url: '/auth/v1/settings' });
    expect(settings.json()).toMatchObject({ mailer_autoconfirm: true, recovery_mail: false });
    for (let i = 0; i < 3; i++) expect((await recover(app, user.email)).statusCode).toBe(200);
    await app.recovery.idle();
    expect(smtp.received).toHaveLength(0);
    expect(await app.db.kysely.selectFrom('recovery_tokens').selectAll().execute()).toEqual([]);

    const run = (...argv: string[]) => runAdminCommand(builtAppContext(app, app.db, app.clock), argv);
    const made = await run('reset-link', 'Solo@Example.com');
    expect(made.exitCode, made.output).toBe(0);
    const url = made.output.split('\n')[0] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/auth\/v1\/verify\?token=tt_rec_[\w-]{43}&type=recovery$/);
    expect(made.output).toContain(new Date(app.clock.now() + 3_600_000).toISOString());
    expect((await follow(app, url)).get('type')).toBe('recovery');
    expect((await run('reset-link', 'nobody@example.com')).exitCode).toBe(2);
    expect((await run('reset-link')).exitCode).toBe(2);
  });

  it('settings say recovery mail is on with SMTP_URL', async () => {
    smtp = await startSmtp();
    const app = (t = await createTestApp({ env: { SMTP_URL: smtp.url } }));
    const settings = await app.app.inject({ method: 'GET', url: '/auth/v1/settings' });
    expect(settings.json()).toEqual({
      external: { email: true },
      external_labels: {},
      disable_signup: false,
      signup_mode: 'open',
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      recovery_mail: true,
    });
  });

  it('logs a refused SMTP login without the credentials, and answers the caller the same', async () => {
    smtp = await startSmtp();
    const wrong = smtp.url.replace(SMTP_PASS, 'wrong-pass-123');
    const app = (t = await createTestApp({ env: { SMTP_URL: wrong } }));
    await signUp(app, 'fay@example.com', 'old password');
    expect((await recover(app, 'fay@example.com')).statusCode).toBe(200);
    await app.recovery.idle();
    expect(smtp.received).toHaveLength(0);
    expect(smtp.refusedLogins).toBeGreaterThan(0);
    const logs = app.logs.join('');
    expect(logs).toContain('a password recovery e-mail was not sent (EAUTH 535');
    expect(logs).not.toContain('wrong-pass-123');
    expect(logs).not.toContain(Buffer.from('\u0000mailer\u0000wrong-pass-123').toString('base64'));
  });

  it('a password changed otherwise ends an outstanding link; the retention job deletes expired ones', async () => {
    smtp = await startSmtp();
    const app = (t = await createTestApp({ env: { SMTP_URL: smtp.url } }));
    const user = await signUp(app, 'gus@example.com', 'old password');
    await recover(app, user.email);
    await app.recovery.idle();
    const link = linkIn(smtp.received[0]?.raw ?? '');
    const put = await app.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(user.accessToken),
      payload: { password: 'new password' },
    });
    expect(put.statusCode).toBe(200);
    expect((await follow(app, link)).get('error_code')).toBe('otp_expired');

    await runAdminCommand(builtAppContext(app, app.db, app.clock), ['reset-link', user.email]);
    app.clock.advance(3_600_000);
    expect(await purgeSpentCredentials(app, { days: 30 })).toMatchObject({ recoveryTokens: 1 });
  });

  it("auth-js's resetPasswordForEmail sends what /recover reads, redirectTo included", async () => {
    smtp = await startSmtp();
    const app = (t = await createTestApp({ env: { SMTP_URL: smtp.url } }));
    await signUp(app, 'hal@example.com', 'old password');
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.app.server.address() as AddressInfo;
    const client = new GoTrueClient({ url: `http://127.0.0.1:${port}/auth/v1`, persistSession: false });
    const back = 'http://127.0.0.1:8787/settings';
    const { data, error } = await client.resetPasswordForEmail('hal@example.com', { redirectTo: back });
    expect(error).toBeNull();
    expect(data).toEqual({});
    await app.recovery.idle();
    const link = linkIn(smtp.received[0]?.raw ?? '');
    expect(new URL(link).searchParams.get('redirect_to')).toBe(back);
    const res = await app.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
    expect((res.headers.location as string).startsWith(`${back}#access_token=`)).toBe(true);
  });
});
