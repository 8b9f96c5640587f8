/**
 * Password recovery (GoTrue's /recover and /verify): the mail sent through a real SMTP server with a
 * login, its link followed to a fresh session in the URL fragment, a new password set without the
 * current one, every other session ended, and the link single-use and good for an hour.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, signIn, signUp } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { decoded, linkIn, startSmtp, type TestSmtp } from '../helpers/smtp.js';

const PUBLIC_URL = 'https://tokentally.example.com';

describe(`password recovery (${engine})`, () => {
  let t: TestApp;
  let smtp: TestSmtp;

  beforeEach(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      env: { PUBLIC_URL, SMTP_URL: smtp.url, SMTP_FROM: 'Tokentally <noreply@tokentally.example.com>' },
    });
  });
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  const recover = (email: string, query = '') =>
    t.app.inject({ method: 'POST', url: `/auth/v1/recover${query}`, payload: { email } });
  /** Follows a link of this server (given as PUBLIC_URL writes it) and reads the 303's fragment. */
  const follow = async (link: string) => {
    const url = new URL(link);
    expect(url.origin).toBe(PUBLIC_URL);
    const res = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(res.statusCode, res.body).toBe(303);
    const location = new URL(res.headers.location as string);
    return { res, location, fragment: new URLSearchParams(location.hash.slice(1)) };
  };
  const mailedLink = async (email: string, query = '') => {
    const before = smtp.received.length;
    const res = await recover(email, query);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({});
    await t.recovery.idle();
    expect(smtp.received).toHaveLength(before + 1);
    return linkIn(smtp.received[before]?.raw ?? '');
  };

  it('mails a link that signs in to a fresh session, which sets a new password; the rest are signed out', async () => {
    const user = await signUp(t, 'ada@example.com', 'old password');
    const other = await signIn(t, user.email, 'old password');
    t.clock.advance(60 * 60_000); // the sessions are no longer fresh

    const link = await mailedLink('  Ada@Example.com ');
    const mail = smtp.received[0];
    expect(mail?.to).toEqual(['ada@example.com']);
    expect(mail?.from).toBe('noreply@tokentally.example.com');
    const text = decoded(mail?.raw ?? '');
    expect(text).toMatch(/Subject: Reset your Tokentally password/);
    expect(text).toMatch(/Content-Type: text\/plain/);
    expect(text).toMatch(/Content-Type: text\/html/);
    expect(text).toContain('expires in an hour');
    expect(text).toContain('you can ignore this e-mail');
    expect(link).toMatch(
      /^https:\/\/tokentally\.example\.com\/auth\/v1\/verify\?token=tt_rec_[A-Za-z0-9_-]{43}&type=recovery$/,
    );
    expect(smtp.refusedLogins).toBe(0);

    const { res, location, fragment } = await follow(link);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(`${location.origin}${location.pathname}`).toBe(`${PUBLIC_URL}/`);
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(Number(fragment.get('expires_in'))).toBeGreaterThan(0);
    expect(Number(fragment.get('expires_at'))).toBe(
      Math.floor(t.clock.now() / 1000) + Number(fragment.get('expires_in')),
    );
    const access = fragment.get('access_token') ?? '';
    const refresh = fragment.get('refresh_token') ?? '';
    const me = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(access) });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('ada@example.com');

    // The other sessions ended when the link was followed: their refresh tokens and access tokens.
    for (const s of [user, other]) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=refresh_token',
        payload: { refresh_token: s.refreshToken },
      });
      expect(r.statusCode).toBe(400);
      expect(
        (await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(s.accessToken) })).statusCode,
      ).toBe(401);
    }

    // Fresh: a new password without the current one.
    const put = await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(access),
      payload: { password: 'new password' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const old = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: user.email, password: 'old password' },
    });
    expect(old.statusCode).toBe(400);
    await signIn(t, user.email, 'new password');
    // The recovery session goes on (a refresh works).
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      payload: { refresh_token: refresh },
    });
    expect(refreshed.statusCode).toBe(200);

    // Single use: the same link again is GoTrue's otp_expired in the fragment, no session.
    const again = await follow(link);
    expect(Object.fromEntries(again.fragment)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });
  });

  it('expires after an hour, and a newer link replaces an older one', async () => {
    await signUp(t, 'bob@example.com', 'old password');
    const first = await mailedLink('bob@example.com');
    t.clock.advance(61_000);
    const second = await mailedLink('bob@example.com');
    expect((await follow(first)).fragment.get('error_code')).toBe('otp_expired');
    t.clock.advance(60 * 60_000);
    const expired = await follow(second);
    expect(expired.fragment.get('error_code')).toBe('otp_expired');
    expect(expired.fragment.get('access_token')).toBeNull();
    t.clock.advance(61_000);
    const third = await mailedLink('bob@example.com');
    t.clock.advance(60 * 60_000 - 1);
    expect((await follow(third)).fragment.get('type')).toBe('recovery');
  });

  it('answers an unknown address the same way and mails nothing', async () => {
    await signUp(t, 'carol@example.com', 'old password');
    const res = await recover('nobody@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    await t.recovery.idle();
    expect(smtp.received).toHaveLength(0);
    const bad = await recover('not an address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error_code).toBe('validation_failed');
  });

  it('returns only to this server: redirect_to on another origin falls back to the dashboard root', async () => {
    await signUp(t, 'dan@example.com', 'old password');
    const own = `${PUBLIC_URL}/settings?tab=password`;
    const link = await mailedLink('dan@example.com', `?redirect_to=${encodeURIComponent(own)}`);
    expect(new URL(link).searchParams.get('redirect_to')).toBe(own);
    const { location } = await follow(link);
    expect(`${location.origin}${location.pathname}${location.search}`).toBe(own);

    t.clock.advance(61_000);
    for (const evil of [
      'https://evil.example/steal',
      'https://tokentally.example.com.evil.example/',
      'https://tokentally.example.com@evil.example/',
      '//evil.example/',
      'javascript:alert(1)',
      'http://tokentally.example.com/', // another scheme is another origin
    ]) {
      const mailed = await mailedLink('dan@example.com', `?redirect_to=${encodeURIComponent(evil)}`);
      expect(new URL(mailed).searchParams.get('redirect_to')).toBeNull();
      // A link whose redirect_to was changed by hand goes nowhere else either.
      const tampered = new URL(mailed);
      tampered.searchParams.set('redirect_to', evil);
      const { location: to, fragment } = await follow(tampered.toString());
      expect(`${to.origin}${to.pathname}`).toBe(`${PUBLIC_URL}/`);
      expect(fragment.get('type')).toBe('recovery');
      t.clock.advance(13 * 60_000);
    }
  });

  it('keeps the token out of the request log', async () => {
    await signUp(t, 'erin@example.com', 'old password');
    const link = await mailedLink('erin@example.com');
    await follow(link);
    const token = new URL(link).searchParams.get('token') ?? '';
    expect(t.logs.join('')).toContain('/auth/v1/verify');
    expect(t.logs.join('')).not.toContain(token);
    expect(t.logs.join('')).not.toContain('s3cret-smtp-pass');
  });

  it('refuses a verification of another type or without a token (400, nothing changed)', async () => {
    const r1 = await t.app.inject({ method: 'GET', url: '/auth/v1/verify?type=signup&token=x' });
    expect(r1.statusCode).toBe(400);
    const r2 = await t.app.inject({ method: 'GET', url: '/auth/v1/verify?type=recovery' });
    expect(r2.statusCode).toBe(400);
    expect(r2.headers['content-type']).toMatch(/problem\+json/);
  });
});
