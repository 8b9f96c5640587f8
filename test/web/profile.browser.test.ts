/**
 * The public profile page in Debian's chromium: Settings sets the handle and the public fields,
 * then /u/<handle> shows them to a visitor who is not signed in (heatmap, totals with cost, top
 * models and tools, streaks, ranks). Accessibility (axe), no sideways scroll at 390 px;
 * screenshots (light, dark, phone) go to test-results/screenshots.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { engine } from '../helpers/app.js';
import { bearer, ingest, issueDevice, signIn } from '../helpers/actors.js';
import {
  axeViolations,
  newContext,
  scrollsSideways,
  SHOTS,
  startBrowserPage,
  type BrowserEnv,
  VISUAL_CHECKS,
} from './browser.js';

vi.setConfig({ testTimeout: 120_000 });

const EMAIL = `profile-${Date.now()}@example.com`;
const PASSWORD = 'a long password';
const MODELS = ['claude-sonnet-4-5', 'gpt-5-codex', 'gemini-2.5-pro'];
const SOURCES = ['claude', 'codex', 'gemini'];

describe(`the public profile page in a browser (${engine})`, () => {
  let env: BrowserEnv;
  let page: Page;

  beforeAll(async () => {
    ({ env, page } = await startBrowserPage({ signUp: { email: EMAIL, password: PASSWORD, name: 'Ada Lovelace' } }));
    const user = await signIn(env.t, EMAIL, PASSWORD);
    const device = await issueDevice(env.t, user);
    const hourMs = 3_600_000;
    const now = Math.floor(env.t.clock.now() / hourMs) * hourMs;
    // Forty active days over the last 80, three tools and models.
    const buckets = Array.from({ length: 40 }, (_, i) => ({
      hour_start: new Date(now - (i < 10 ? i : i * 2) * 24 * hourMs).toISOString(),
      source: SOURCES[i % 3] as string,
      model: MODELS[i % 3] as string,
      input_tokens: 40_000 + i * 1_000,
      output_tokens: 5_000,
      total_tokens: 45_000 + i * 1_000,
    }));
    expect((await ingest(env.t, device.token, buckets)).statusCode).toBe(200);
    await env.t.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(env.t.secrets.serviceRoleKey),
    });
  }, 60_000);
  afterAll(async () => env?.close());

  it('Settings makes the page; a visitor sees only the public fields, light, dark and on a phone', async () => {
    await page.goto('/settings');
    // The Public switch follows the server's answer (it changes only once the answer is in).
    const publicSwitch = page.getByRole('switch', { name: /^Public/ });
    await publicSwitch.click();
    await expect.poll(() => publicSwitch.isChecked()).toBe(true);
    const panel = page.getByTestId('profile-settings');
    await panel.getByLabel('Address (handle)').fill('Ada-Lovelace');
    await panel.getByRole('button', { name: 'Save address' }).click();
    await panel.getByText('Address saved.').waitFor();
    await panel.getByRole('link', { name: /\/u\/ada-lovelace$/ }).waitFor();
    for (const field of ['heatmap', 'cost', 'models', 'sources', 'streaks']) {
      await panel.getByTestId(`field-${field}`).check();
      await expect.poll(() => panel.getByTestId(`field-${field}`).isChecked()).toBe(true);
    }
    await panel.getByTestId('field-ranks').uncheck();
    await expect.poll(() => panel.getByTestId('field-ranks').isChecked()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);

    for (const options of [
      {},
      ...(VISUAL_CHECKS ? [{ dark: true }, { phone: true }, { phone: true, dark: true }] : []),
    ]) {
      const visitor = await newContext(env, options);
      const p = await visitor.newPage();
      await p.goto('/u/ada-lovelace');
      await p.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
      await p.getByTestId('top-models').waitFor();
      expect(await p.getByTestId('top-sources').textContent()).toMatch(/claude.*codex.*gemini|codex|gemini/);
      expect(await p.getByTestId('stat-cost').textContent()).toMatch(/^\$/);
      expect(await p.getByTestId('stat-tokens').textContent()).toMatch(/M$/);
      // The heatmap shows the latest weeks that fit the width (at least a quarter of the year).
      expect(await p.locator('.heat-cell[data-level]').count()).toBeGreaterThanOrEqual(13 * 7);
      expect(await p.getByTestId('rank-week').count()).toBe(0); // ranks switched off
      expect(await p.getByText('@ada-lovelace').count()).toBe(1);
      expect(await scrollsSideways(p), `profile scrolls sideways (${JSON.stringify(options)})`).toBe(false);
      expect(await axeViolations(p)).toEqual([]);
      const name = `${'phone' in options ? 'phone' : 'desktop'}-${'dark' in options ? 'dark' : 'light'}`;
      await p.screenshot({ path: `${SHOTS}/profile-${name}.png`, fullPage: true });
      await visitor.close();
    }
  });
});
