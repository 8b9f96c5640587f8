/**
 * @fileoverview Single sign-on end to end over HTTP, GoTrue's way (auth-js's signInWithOAuth and
 * exchangeCodeForSession): a real OpenID provider (oidc-provider) and a fake GitHub in this process;
 * authorize → provider login → callback → code → pkce grant → a working session; the implicit
 * flow; and the attacks: a tampered or replayed state, a reused code, a wrong verifier, an expired
 * code, an unverified e-mail address against an existing account, an open redirect.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/actors.js';
import { loadConfig } from '../../src/config.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import {
  OIDC_CLIENT,
  signInAtProvider,
  startFakeGithub,
  startFakeOidc,
  type FakeGithub,
  type FakeOidc,
} from '../helpers/fake-sso.js';

const PUBLIC_URL = 'http://tokentally.test';
const CALLBACK = `${PUBLIC_URL}/auth/v1/callback`;
const APP_ORIGIN = 'https://app.example.com';

function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('single sign-on', () => {
  let t: TestApp;
  let oidc: FakeOidc;
  let github: FakeGithub;

  beforeAll(async () => {
    oidc = await startFakeOidc(CALLBACK);
    github = await startFakeGithub();
    t = await createTestApp({
      env: {
        PUBLIC_URL,
        OIDC_ISSUER: oidc.issuer,
        OIDC_CLIENT_ID: OIDC_CLIENT.id,
        OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
        OIDC_DISPLAY_NAME: 'Example SSO',
        GITHUB_CLIENT_ID: 'gh-client',
        GITHUB_CLIENT_SECRET: 'gh-secret',
        GITHUB_BASE_URL: github.url,
        GITHUB_API_URL: github.url,
        AUTH_REDIRECT_ALLOW_LIST: APP_ORIGIN,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await oidc?.close();
    await github?.close();
  });

  async function authorize(query: Record<string, string>) {
    return t.app.inject({ method: 'GET', url: `/auth/v1/authorize?${new URLSearchParams(query).toString()}` });
  }

  async function callback(url: URL) {
    return t.app.inject({ method: 'GET', url: `/auth/v1/callback${url.search}` });
  }

  /** authorize → provider → callback: the callback's answer. */
  async function oidcSignIn(login: string, extra: Record<string, string> = {}) {
    const started = await authorize({ provider: 'oidc', redirect_to: `${PUBLIC_URL}/`, ...extra });
    expect(started.statusCode, started.body).toBe(302);
    const back = await signInAtProvider(started.headers.location as string, login, CALLBACK);
    return callback(back);
  }

  async function pkceSignIn(login: string) {
    const { verifier, challenge } = pkcePair();
    const res = await oidcSignIn(login, { code_challenge: challenge, code_challenge_method: 's256' });
    expect(res.statusCode, res.body).toBe(303);
    const location = new URL(res.headers.location as string);
    return { location, verifier, code: location.searchParams.get('code') };
  }

  async function exchange(authCode: string, verifier: string) {
    return t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=pkce',
      payload: { auth_code: authCode, code_verifier: verifier },
    });
  }

  async function userOf(accessToken: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/user',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; email: string; app_metadata: { provider: string } }>();
  }

  it('lists the configured providers in /auth/v1/settings, as GoTrue does', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/auth/v1/settings' });
    const body = res.json<{ external: Record<string, boolean>; external_labels: Record<string, string> }>();
    expect(body.external).toEqual({ email: true, oidc: true, github: true });
    expect(body.external_labels).toEqual({ oidc: 'Example SSO', github: 'GitHub' });
  });

  it('signs a new user in with PKCE: code in the redirect, exchanged once for a working session', async () => {
    oidc.accounts.set('alice', { email: 'Alice@Example.com', email_verified: true, name: 'Alice' });
    const { location, verifier, code } = await pkceSignIn('alice');
    expect(location.origin + location.pathname).toBe(`${PUBLIC_URL}/`);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await exchange(code!, verifier);
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json<{
      access_token: string;
      refresh_token: string;
      token_type: string;
      user: { email: string };
    }>();
    expect(session.token_type).toBe('bearer');
    const user = await userOf(session.access_token);
    expect(user.email).toBe('alice@example.com');
    // An SSO-only account: no password, so the dashboard hides the password form.
    expect(user.app_metadata.provider).toBe('sso');
    const stored = await t.db.kysely.selectFrom('sso_codes').select('code_hash').execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(code);
    const row = await t.db.kysely
      .selectFrom('refresh_tokens')
      .select('authenticated_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.authenticated_at)).toBe(t.clock.now());
    // The code works once.
    const again = await exchange(code!, verifier);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error_code: 'flow_state_not_found' });
  });

  it('refuses a wrong verifier (the code stays usable by its owner) and an expired code', async () => {
    oidc.accounts.set('carol', { email: 'carol@example.com', email_verified: true });
    const first = await pkceSignIn('carol');
    const wrong = await exchange(first.code!, pkcePair().verifier);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error_code: 'bad_code_verifier' });
    expect((await exchange(first.code!, first.verifier)).statusCode).toBe(200);

    const second = await pkceSignIn('carol');
    t.clock.advance(5 * 60_000 + 1);
    const late = await exchange(second.code!, second.verifier);
    expect(late.statusCode).toBe(422);
    expect(late.json()).toMatchObject({ error_code: 'flow_state_expired' });
  });

  it('answers the implicit flow (no code_challenge) with the session in the fragment', async () => {
    oidc.accounts.set('dave', { email: 'dave@example.com', email_verified: true });
    const res = await oidcSignIn('dave', { redirect_to: `${APP_ORIGIN}/signed-in?x=1` });
    expect(res.statusCode).toBe(303);
    const location = new URL(res.headers.location as string);
    expect(location.origin + location.pathname + location.search).toBe(`${APP_ORIGIN}/signed-in?x=1`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('token_type')).toBe('bearer');
    expect(Number(fragment.get('expires_in'))).toBeGreaterThan(0);
    expect(fragment.get('refresh_token')).toBeTruthy();
    expect((await userOf(fragment.get('access_token')!)).email).toBe('dave@example.com');
  });

  it('matches an existing account by a verified e-mail address, and later sign-ins by subject', async () => {
    const bob = await signUp(t, 'bob@example.com');
    oidc.accounts.set('bob-sub', { email: 'bob@example.com', email_verified: true });
    const first = await pkceSignIn('bob-sub');
    const session = (await exchange(first.code!, first.verifier)).json<{ access_token: string }>();
    expect((await userOf(session.access_token)).id).toBe(bob.id);
    // The provider account changes its address: the link by subject still names Bob.
    oidc.accounts.set('bob-sub', { email: 'robert@example.com', email_verified: true });
    const second = await pkceSignIn('bob-sub');
    const again = (await exchange(second.code!, second.verifier)).json<{ access_token: string }>();
    expect((await userOf(again.access_token)).id).toBe(bob.id);
  });

  it('never matches an existing account by an unverified e-mail address', async () => {
    const victim = await signUp(t, 'victim@example.com');
    oidc.accounts.set('mallory', { email: 'victim@example.com', email_verified: false });
    const { verifier: _v, challenge } = pkcePair();
    const res = await oidcSignIn('mallory', { code_challenge: challenge, code_challenge_method: 's256' });
    expect(res.statusCode).toBe(303);
    const location = new URL(res.headers.location as string);
    expect(location.searchParams.get('code')).toBeNull();
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_code')).toBe('provider_email_needs_verification');
    const links = await t.db.kysely
      .selectFrom('user_identities')
      .selectAll()
      .where('user_id', '=', victim.id)
      .execute();
    expect(links).toEqual([]);
    const codes = await t.db.kysely.selectFrom('sso_codes').selectAll().where('user_id', '=', victim.id).execute();
    expect(codes).toEqual([]);
  });

  it('refuses a tampered or replayed state with an error page, signing no one in', async () => {
    oidc.accounts.set('erin', { email: 'erin@example.com', email_verified: true });
    const started = await authorize({ provider: 'oidc', redirect_to: `${PUBLIC_URL}/` });
    const back = await signInAtProvider(started.headers.location as string, 'erin', CALLBACK);
    const tampered = new URL(back);
    tampered.searchParams.set('state', `${back.searchParams.get('state')}x`);
    const refused = await callback(tampered);
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.body).toContain('Sign-in failed');
    // The real state works once; the same callback again is refused.
    expect((await callback(back)).statusCode).toBe(303);
    const replayed = await callback(back);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.headers.location).toBeUndefined();
  });

  it('ends a flow older than 10 minutes with an error redirect', async () => {
    oidc.accounts.set('frank', { email: 'frank@example.com', email_verified: true });
    const started = await authorize({
      provider: 'oidc',
      redirect_to: `${PUBLIC_URL}/`,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 's256',
    });
    const back = await signInAtProvider(started.headers.location as string, 'frank', CALLBACK);
    t.clock.advance(10 * 60_000 + 1);
    const res = await callback(back);
    expect(res.statusCode).toBe(303);
    expect(new URL(res.headers.location as string).searchParams.get('error_code')).toBe('flow_state_expired');
  });

  it('refuses redirect_to outside PUBLIC_URL and the allow-list (no open redirect), and unknown providers', async () => {
    for (const target of [
      'https://evil.example/',
      '//evil.example/x',
      'javascript:alert(1)',
      'http://tokentally.test.evil.example/',
      `${APP_ORIGIN}:444/`,
    ]) {
      const res = await authorize({ provider: 'oidc', redirect_to: target });
      expect(res.statusCode, target).toBe(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(res.headers.location).toBeUndefined();
    }
    expect((await authorize({ provider: 'google' })).statusCode).toBe(400);
    const flows = await t.db.kysely.selectFrom('sso_flows').select('redirect_to').execute();
    expect(flows.map((f) => f.redirect_to).filter((r) => r.includes('evil'))).toEqual([]);
  });

  it('signs in with GitHub: its verified primary address; an unverified one is refused', async () => {
    const { verifier, challenge } = pkcePair();
    const started = await authorize({
      provider: 'github',
      redirect_to: `${PUBLIC_URL}/`,
      code_challenge: challenge,
      code_challenge_method: 's256',
    });
    expect(started.statusCode).toBe(302);
    const at = new URL(started.headers.location as string);
    expect(at.origin + at.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(at.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(at.searchParams.get('code_challenge_method')).toBe('S256');
    const state = at.searchParams.get('state')!;
    const res = await callback(new URL(`${CALLBACK}?code=${github.issueCode()}&state=${state}`));
    expect(res.statusCode, res.body).toBe(303);
    const code = new URL(res.headers.location as string).searchParams.get('code')!;
    const session = (await exchange(code, verifier)).json<{ access_token: string }>();
    expect((await userOf(session.access_token)).email).toBe('octo@example.com');

    github.user = { id: 777, login: 'sneaky', name: null };
    github.emails = [{ email: 'victim2@example.com', primary: true, verified: false }];
    await signUp(t, 'victim2@example.com');
    const again = await authorize({
      provider: 'github',
      redirect_to: `${PUBLIC_URL}/`,
      code_challenge: challenge,
      code_challenge_method: 's256',
    });
    const state2 = new URL(again.headers.location as string).searchParams.get('state')!;
    const refused = await callback(new URL(`${CALLBACK}?code=${github.issueCode()}&state=${state2}`));
    expect(new URL(refused.headers.location as string).searchParams.get('error_code')).toBe(
      'provider_email_needs_verification',
    );
  });

  it('passes a provider error back to redirect_to', async () => {
    const started = await authorize({
      provider: 'github',
      redirect_to: `${PUBLIC_URL}/`,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 's256',
    });
    const state = new URL(started.headers.location as string).searchParams.get('state')!;
    const res = await callback(
      new URL(`${CALLBACK}?error=access_denied&error_description=The+user+said+no&state=${state}`),
    );
    const location = new URL(res.headers.location as string);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_description')).toBe('The user said no');
  });
});

describe('single sign-on settings', () => {
  it('refuses half a provider and an allow-list entry that is not an origin', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID/);
    expect(() => loadConfig({ GITHUB_CLIENT_ID: 'x' })).toThrow(/GITHUB_CLIENT_SECRET/);
    expect(() => loadConfig({ AUTH_REDIRECT_ALLOW_LIST: 'https://app.example.com/path' })).toThrow(/origins/);
    expect(loadConfig({}).sso).toEqual({ oidc: undefined, github: undefined, redirectAllowList: [] });
  });
});
