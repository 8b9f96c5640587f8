/**
 * Settings → API tokens in Debian's chromium: the section renders, a token is created and shown
 * once (it reads the user's status over HTTP), the list shows it without the token, and revoking
 * after the confirmation removes it (the token is then refused). Accessibility (axe) and no
 * sideways scroll at 390 px; screenshots go to test-results/screenshots.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engine } from '../helpers/app.js';
import {
  axeViolations,
  sameSession,
  scrollsSideways,
  SHOTS,
  startBrowserPage,
  type BrowserEnv,
  VISUAL_CHECKS,
} from './browser.js';

vi.setConfig({ testTimeout: 120_000 });

describe(`settings: API tokens in a browser (${engine})`, () => {
  let env: BrowserEnv;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    ({ env, ctx, page } = await startBrowserPage({
      problems,
      signUp: { email: `tokens-${Date.now()}@example.com`, password: 'a long password', name: 'Token Tester' },
    }));
  }, 60_000);
  afterAll(async () => env?.close());

  const statusWith = async (token: string) =>
    (await fetch(`${env.base}/functions/svc-user-status`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('creates a token shown once, lists it and revokes it after a confirmation', async () => {
    await page.goto('/settings');
    const card = page.getByRole('region', { name: 'API tokens' });
    await card.getByText('No API tokens yet.').waitFor();

    await card.getByLabel('Token name').fill('grafana');
    await card.getByLabel('Expires').selectOption('30');
    await card.getByRole('button', { name: 'Create token' }).click();
    const value = card.getByTestId('api-token-value');
    await value.waitFor();
    const token = await value.inputValue();
    expect(token).toMatch(/^tt_pat_[A-Za-z0-9_-]{43}$/);
    await card.getByRole('button', { name: 'Copy token' }).waitFor();
    expect(await statusWith(token)).toBe(200);

    const row = card.getByTestId('api-token-row');
    await row.getByText('grafana').waitFor();
    expect(await row.textContent()).toMatch(/Expires\s*in 30 days/);
    expect(await row.textContent()).toContain('Last used');
    expect(await card.getByTestId('api-token-list').textContent()).not.toContain(token);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/settings-tokens-light.png`, fullPage: true });
    for (const options of VISUAL_CHECKS ? [{ phone: true }, { phone: true, dark: true }] : []) {
      const other = await sameSession(env, ctx, options);
      const p = await other.newPage();
      await p.goto('/settings');
      await p.getByTestId('api-token-row').waitFor();
      expect(await scrollsSideways(p), 'settings scrolls sideways at 390 px').toBe(false);
      await p.screenshot({
        path: `${SHOTS}/settings-tokens-phone-${options.dark ? 'dark' : 'light'}.png`,
        fullPage: true,
      });
      await other.close();
    }

    // Done hides the token for good; a reload shows only the list.
    await card.getByRole('button', { name: 'Done' }).click();
    expect(await card.getByTestId('api-token-value').count()).toBe(0);

    await row.getByRole('button', { name: 'Revoke grafana' }).click();
    await row.getByText(/Revoke grafana\? What uses it stops at once\./).waitFor();
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await card.getByText('No API tokens yet.').waitFor();
    expect(await statusWith(token)).toBe(401);
    expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
  });
});
