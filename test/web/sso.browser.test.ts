/**
 * @fileoverview Single sign-on in Debian's chromium: the sign-in page shows the provider's button
 * (from /auth/v1/settings); clicking it goes through a real OpenID provider's login and consent
 * pages (oidc-provider, in this process) and back, where the dashboard's auth client exchanges the
 * code (PKCE) and the user lands signed in. A refused sign-in comes back with its reason shown.
 * SQLite only: the storage side is covered on both engines by test/http/sso.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engine } from '../helpers/app.js';
import { OIDC_CLIENT, startFakeOidc, type FakeOidc } from '../helpers/fake-sso.js';
import { freePort, newContext, SHOTS, startBrowserEnv, type BrowserEnv } from './browser.js';

vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(engine !== 'sqlite')('single sign-on in a browser', () => {
  let env: BrowserEnv;
  let oidc: FakeOidc;

  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    oidc = await startFakeOidc(`${base}/auth/v1/callback`);
    oidc.accounts.set('sam', { email: 'sam@example.com', email_verified: true, name: 'Sam Single' });
    oidc.accounts.set('una', { email: 'una@example.com', email_verified: false });
    env = await startBrowserEnv({
      port,
      env: {
        PUBLIC_URL: base,
        OIDC_ISSUER: oidc.issuer,
        OIDC_CLIENT_ID: OIDC_CLIENT.id,
        OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
        OIDC_DISPLAY_NAME: 'Sign in with Example SSO',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await oidc?.close();
  });

  async function throughProvider(login: string) {
    const ctx = await newContext(env);
    const page = await ctx.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in with Example SSO' }).click();
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    return { ctx, page };
  }

  it('clicks the provider button and ends signed in', async () => {
    const { ctx, page } = await throughProvider('sam');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(new URL(page.url()).searchParams.get('code')).toBeNull();
    await page.screenshot({ path: `${SHOTS}/sso-signed-in.png` });
    // The session the dashboard keeps is Sam's, a new account without a password.
    const stored = JSON.parse((await page.evaluate("localStorage.getItem('tokentally.auth')")) as string) as {
      access_token: string;
    };
    const user = await fetch(`${env.base}/auth/v1/user`, {
      headers: { authorization: `Bearer ${stored.access_token}` },
    });
    expect(await user.json()).toMatchObject({ email: 'sam@example.com', app_metadata: { provider: 'sso' } });
    await ctx.close();
  });

  it('shows why a sign-in was refused (an unverified e-mail address)', async () => {
    const { ctx, page } = await throughProvider('una');
    await page
      .getByRole('alert')
      .getByText(/has not verified your e-mail address/)
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/sso-refused.png` });
    await ctx.close();
  });
});
