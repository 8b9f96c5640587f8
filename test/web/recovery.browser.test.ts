/**
 * Password recovery in Debian's chromium: "Forgot password?" on the sign-in page, the e-mail form,
 * the mailed link (a real SMTP server) opened in the browser, the "Set a new password" page (no
 * current password asked), then signed in with the new password; a used link shows its notice on
 * the sign-in page. A server without mail says to ask an admin.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engine } from '../helpers/app.js';
import { linkIn, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import {
  axeViolations,
  freePort,
  newContext,
  SHOTS,
  signUpThroughForm,
  startBrowserEnv,
  type BrowserEnv,
} from './browser.js';

vi.setConfig({ testTimeout: 120_000 });

describe(`password recovery in a browser (${engine})`, () => {
  let env: BrowserEnv;
  let smtp: TestSmtp;
  const problems: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    const port = await freePort();
    env = await startBrowserEnv({ port, env: { PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url } });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  const watch = (page: Page) =>
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().includes('Failed to load resource')) problems.push(m.text());
    });

  it('goes from "Forgot password?" through the mailed link to a new password', async () => {
    const email = `recover-${Date.now()}@example.com`;
    const signUpCtx = await newContext(env);
    await signUpThroughForm(await signUpCtx.newPage(), email, 'the old password', 'Rita');

    const ctx = await newContext(env);
    const page = await ctx.newPage();
    watch(page);
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`If an account exists for ${email}, we sent it a link`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await env.t.recovery.idle();
    const link = linkIn(smtp.received.at(-1)?.raw ?? '');

    await page.goto(link);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    expect(page.url()).not.toContain('access_token');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/recovery-new-password.png`, fullPage: true });
    await page.getByLabel('New password').fill('the new password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    // The old password no longer signs in; the new one does.
    const signIn = (password: string) =>
      fetch(`${env.base}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
    expect((await signIn('the old password')).status).toBe(400);
    expect((await signIn('the new password')).status).toBe(200);

    // The link again: used. The sign-in page says so.
    const other = await (await newContext(env)).newPage();
    await other.goto(link);
    await other.getByText('That password reset link is invalid, used or expired').waitFor();
    expect(other.url()).not.toContain('error_code');
    expect(problems).toEqual([]);
  });
});

describe(`password recovery in a browser without mail (${engine})`, () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await startBrowserEnv();
  }, 60_000);
  afterAll(async () => env?.close());

  it('says to ask an admin', async () => {
    const page = await (await newContext(env)).newPage();
    await page.goto('/forgot-password');
    await page.getByText('Ask an admin of this server to make you a password reset link.').waitFor();
    expect(await page.getByRole('button', { name: 'Send the link' }).count()).toBe(0);
  });
});
