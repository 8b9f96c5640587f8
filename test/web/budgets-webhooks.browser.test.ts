/**
 * Budgets and webhooks in Debian's chromium (docs/budgets.md, docs/webhooks.md): a user sets a
 * monthly budget in dollars and a weekly one in tokens in Settings, uploads past them, and sees the
 * overview's banners and progress; registers a webhook to a real local receiver, sees its signing
 * secret once, sends a test event and reads the delivery list. Accessibility (axe), no sideways
 * scroll at 390 px; screenshots (light, dark, phone) go to test-results/screenshots, and with
 * DOCS_IMAGES=1 those the docs show to docs/img/.
 */
import { copyFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ingest, issueDevice, signIn } from '../helpers/actors.js';
import { engine } from '../helpers/app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import {
  axeViolations,
  sameSession,
  scrollsSideways,
  SHOTS,
  startBrowserPage,
  type BrowserEnv,
  VISUAL_CHECKS,
} from './browser.js';

vi.setConfig({ testTimeout: 180_000 });

const DOCS = process.env['DOCS_IMAGES'] === '1' ? 'docs/img' : null;
const EMAIL = `budget-${Date.now()}@example.com`;
const PASSWORD = 'a long password';
type Look = { name: string; dark?: boolean; phone?: boolean };
const LOOKS: Look[] = [{ name: 'light' }, { name: 'dark', dark: true }, { name: 'phone-light', phone: true }];

describe(`budgets and webhooks in a browser (${engine})`, () => {
  let env: BrowserEnv;
  let ctx: BrowserContext;
  let page: Page;
  let receiver: Receiver;
  const problems: string[] = [];

  /** A region's screenshot, and the docs' copy when asked. */
  const shoot = async (p: Page, region: string, file: string) => {
    const path = `${SHOTS}/${file}.png`;
    // The sticky top bar would cover a card taller than the screen once it is scrolled into view.
    await p.evaluate("document.querySelector('.topbar').style.position = 'static'");
    await p.getByRole('region', { name: region, exact: true }).screenshot({ path });
    if (DOCS) copyFileSync(path, `${DOCS}/${file}.png`);
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ env, ctx, page } = await startBrowserPage({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
      problems,
      signUp: { email: EMAIL, password: PASSWORD, name: 'Grace Hopper' },
    }));
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await receiver?.close();
  });

  it('sets budgets in Settings, then shows progress and the banners once uploads cross them', async () => {
    await page.goto('/settings');
    const panel = page.getByRole('region', { name: 'Budgets', exact: true });
    await panel.getByLabel('Limit', { exact: true }).fill('5');
    await panel.getByRole('button', { name: 'Set budget' }).click();
    await panel.getByText('Monthly budget').waitFor();
    await panel.getByLabel('Period').selectOption('week');
    await panel.getByLabel('Limit in').selectOption('tokens');
    await panel.getByLabel('Limit', { exact: true }).fill('1000000');
    await panel.getByRole('button', { name: 'Set budget' }).click();
    await panel.getByText('Weekly budget').waitFor();

    // An upload of about $4 and 2.15 million billable tokens: 80 % of the month's dollars, past the week's tokens.
    const user = await signIn(env.t, EMAIL, PASSWORD);
    const device = await issueDevice(env.t, user);
    // The server's current half-hour: inside the current week and month in any zone, whatever the
    // wall clock (an hour earlier was last week for a run just after a week began in the user's zone).
    const hour = new Date(Math.floor(env.t.clock.now() / 1_800_000) * 1_800_000).toISOString();
    const bucket = { hour_start: hour, source: 'codex', model: 'gpt-5' };
    const up = await ingest(env.t, device.token, [
      { ...bucket, input_tokens: 2_000_000, output_tokens: 150_000, total_tokens: 2_150_000 },
    ]);
    expect(up.statusCode, up.body).toBe(200);
    await env.t.notifications.alerts.idle();

    await page.goto('/');
    await page.getByTestId('budget-alert').first().waitFor();
    const banners = await page.getByTestId('budget-alert').allTextContents();
    expect(banners.join(' | ')).toContain('100 % of the weekly limit reached');
    expect(banners.join(' | ')).toContain('80 % of the monthly limit reached');
    const progress = page.getByRole('region', { name: 'Budgets', exact: true });
    await progress.getByText('Monthly budget').waitFor();
    expect(await progress.getByTestId('budget-progress').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);

    for (const look of VISUAL_CHECKS ? LOOKS : []) {
      const other = await sameSession(env, ctx, look);
      const p = await other.newPage();
      await p.goto('/');
      await p.getByRole('region', { name: 'Budgets', exact: true }).getByText('Weekly budget').waitFor();
      expect(await scrollsSideways(p), 'the overview scrolls sideways at 390 px').toBe(false);
      await p.screenshot({ path: `${SHOTS}/budgets-overview-${look.name}.png` });
      if (DOCS) copyFileSync(`${SHOTS}/budgets-overview-${look.name}.png`, `${DOCS}/budgets-overview-${look.name}.png`);
      await p.goto('/settings');
      await p.getByRole('region', { name: 'Budgets', exact: true }).getByText('Weekly budget').waitFor();
      expect(await scrollsSideways(p), 'settings scroll sideways at 390 px').toBe(false);
      await shoot(p, 'Budgets', `budgets-settings-${look.name}`);
      await other.close();
    }
    // Dismissed, a banner goes.
    const before = await page.getByTestId('budget-alert').count();
    await page.getByTestId('budget-alert').first().getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => page.getByTestId('budget-alert').count()).toBe(before - 1);
  });

  it('registers a webhook, shows its secret once, sends a test event and lists the deliveries', async () => {
    await page.goto('/settings');
    const panel = page.getByRole('region', { name: 'Webhooks', exact: true });
    await panel.getByText('No webhooks yet.').waitFor();
    await panel.getByLabel('Endpoint URL').fill(receiver.url);
    await panel.getByLabel('Description').fill('Ops alerts');
    await panel.getByLabel('device.linked').check();
    await panel.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await panel.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await panel.getByTestId('webhook-row').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    if (VISUAL_CHECKS) await shoot(page, 'Webhooks', 'webhooks-secret-light');
    await panel.getByRole('button', { name: 'Done' }).click();
    expect(await panel.getByLabel('Signing secret').count()).toBe(0);

    await panel.getByRole('button', { name: 'Send test' }).click();
    await panel.getByText('Delivered (200).').waitFor();
    expect(receiver.received.length).toBe(1);
    expect(receiver.received[0]?.headers['webhook-signature']).toMatch(/^v1,/);
    await panel.getByRole('button', { name: 'Deliveries' }).click();
    const rows = panel.getByTestId('webhook-deliveries').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.first().textContent()).toContain('200');

    for (const look of VISUAL_CHECKS ? LOOKS : []) {
      const other = await sameSession(env, ctx, look);
      const p = await other.newPage();
      await p.goto('/settings');
      const hooks = p.getByRole('region', { name: 'Webhooks', exact: true });
      await hooks.getByRole('button', { name: 'Deliveries' }).click();
      await hooks.getByTestId('webhook-deliveries').locator('tbody tr').first().waitFor();
      expect(await scrollsSideways(p), 'settings scroll sideways at 390 px').toBe(false);
      await shoot(p, 'Webhooks', `webhooks-settings-${look.name}`);
      await other.close();
    }
    expect(problems).toEqual([]);
  });
});
