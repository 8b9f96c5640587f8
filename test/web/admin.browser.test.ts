/**
 * End to end in Debian's chromium: the first account (signed up through the form) is the admin and
 * sees the Admin page; it switches sign-up to invites only and creates an invite; the invite's link
 * signs a second person up, who sees no Admin page; without an invite the form says why not.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engine } from '../helpers/app.js';
import { axeViolations, newContext, SHOTS, signUpThroughForm, startBrowserEnv, type BrowserEnv } from './browser.js';

vi.setConfig({ testTimeout: 120_000 });

const PASSWORD = 'a long password';

describe(`the Admin page in a browser (${engine})`, () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await startBrowserEnv();
  });
  afterAll(async () => env?.close());

  it('admin: settings and an invite; the invite link signs up; the refusal is explained', async () => {
    const adminContext = await newContext(env);
    const page = await adminContext.newPage();
    await signUpThroughForm(page, 'boss@example.com', PASSWORD, 'Boss');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
    await page.getByRole('cell', { name: /boss@example\.com/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('With an invite only').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved. It applies to the next sign-up.').waitFor();

    await page.getByLabel('Uses').fill('1');
    await page.getByRole('button', { name: 'Create invite' }).click();
    const url = await page.getByTestId('invite-url').innerText();
    const token = new URL(url).searchParams.get('invite');
    expect(token).toMatch(/^tt_inv_/);
    await page.screenshot({ path: `${SHOTS}/admin.png`, fullPage: true });

    // Without an invite: told why.
    const strangerContext = await newContext(env);
    const stranger = await strangerContext.newPage();
    await stranger.goto('/sign-up');
    await stranger.getByText('New accounts on this server need an invite.').waitFor();
    await stranger.getByLabel('E-mail').fill('stranger@example.com');
    await stranger.getByLabel('Password').fill(PASSWORD);
    await stranger.getByRole('button', { name: 'Create account' }).click();
    await stranger.getByRole('alert').filter({ hasText: 'without an invite' }).waitFor();

    // With the invite's link: signed up, no Admin page.
    const guestContext = await newContext(env);
    const guest = await guestContext.newPage();
    await guest.goto(`/sign-up?invite=${token}`);
    await guest.getByText('You have an invite').waitFor();
    await guest.getByLabel('E-mail').fill('guest@example.com');
    await guest.getByLabel('Password').fill(PASSWORD);
    await guest.getByRole('button', { name: 'Create account' }).click();
    await guest.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await guest.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(0);

    // The admin sees the invite used, and the new account.
    await page.reload();
    await page.getByRole('cell', { name: /guest@example\.com/ }).waitFor();
    await page.getByRole('cell', { name: 'spent' }).waitFor();

    // A password reset link for the guest, to hand over (no mail here).
    await page.getByRole('button', { name: 'Make a password reset link for guest@example.com' }).click();
    const link = page.getByRole('textbox', { name: /Password reset link for guest@example\.com/ });
    expect(await link.inputValue()).toMatch(/\/auth\/v1\/verify\?token=tt_rec_/);
    await Promise.all([adminContext.close(), strangerContext.close(), guestContext.close()]);
  });
});
