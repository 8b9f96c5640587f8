/**
 * Devices → "No install (agent telemetry)" in Debian's chromium: creating its token issues a real
 * device token (accepted by the OTLP receiver), the settings of every agent are shown with this
 * server's address and that token, each with a copy button, and the new device is listed.
 * Accessibility (axe) and no sideways scroll at 390 px; screenshots light, dark and phone go to
 * test-results/screenshots.
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

const AGENTS = [
  'Claude Code',
  'Claude Code, for a company',
  'Codex CLI',
  'Gemini CLI',
  'Qwen Code',
  'GitHub Copilot CLI',
];

describe(`devices: agent telemetry setup in a browser (${engine})`, () => {
  let env: BrowserEnv;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    ({ env, ctx, page } = await startBrowserPage({
      problems,
      signUp: { email: `otlp-${Date.now()}@example.com`, password: 'a long password', name: 'Telemetry Tester' },
    }));
  }, 60_000);
  afterAll(async () => env?.close());

  it('creates a device token and shows each agent its settings, ready to copy', async () => {
    await page.goto('/devices');
    const card = page.getByRole('region', { name: 'No install (agent telemetry)' });
    await card.getByLabel('Machine name').fill('build box');
    await card.getByRole('button', { name: 'Create a token for agent telemetry' }).click();
    const settings = card.getByTestId('telemetry-settings');
    await settings.waitFor();

    expect(await settings.getByRole('heading', { level: 3 }).allTextContents()).toEqual(AGENTS);
    const blocks = await Promise.all(
      AGENTS.map((agent) => settings.getByLabel(`Settings for ${agent}`, { exact: true }).textContent()),
    );
    const token = /tt_dev_[A-Za-z0-9_-]+/.exec(blocks[0] ?? '')?.[0] ?? '';
    expect(token).not.toBe('');
    for (const [i, code] of blocks.entries()) expect(code, AGENTS[i]).toContain(env.base);
    for (const i of [0, 2, 5]) expect(blocks[i], AGENTS[i]).toContain(token);
    expect(blocks[2]).toContain(`${env.base}/v1/logs`);
    // Gemini CLI and Qwen Code take the header from the environment: a line of its own to copy.
    for (const agent of ['Gemini CLI', 'Qwen Code'])
      expect(await settings.getByLabel(`Shell profile line for ${agent}`).textContent()).toBe(
        `export OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer ${token}"`,
      );
    expect(await settings.getByRole('button', { name: 'Copy' }).count()).toBe(AGENTS.length + 2);
    await settings.getByRole('button', { name: 'Copy' }).first().click();
    await settings.getByRole('button', { name: 'Copied' }).waitFor();

    // The token is a device's: the receiver takes an (empty) export with it, and the device is listed.
    const answer = await fetch(`${env.base}/v1/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(200);
    await page.getByRole('region', { name: 'Linked machines' }).getByText('build box').waitFor();

    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/telemetry-setup-light.png`, fullPage: true });
    for (const options of VISUAL_CHECKS ? [{ dark: true }, { phone: true }, { phone: true, dark: true }] : []) {
      const other = await sameSession(env, ctx, options);
      const p = await other.newPage();
      await p.goto('/devices');
      const panel = p.getByRole('region', { name: 'No install (agent telemetry)' });
      await panel.getByRole('button', { name: 'Create a token for agent telemetry' }).click();
      await panel.getByTestId('telemetry-settings').waitFor();
      if (options.phone) expect(await scrollsSideways(p), 'the setup scrolls sideways at 390 px').toBe(false);
      await p.screenshot({
        path: `${SHOTS}/telemetry-setup-${options.phone ? 'phone' : 'desktop'}-${options.dark ? 'dark' : 'light'}.png`,
        fullPage: true,
      });
      await other.close();
    }
    expect(problems).toEqual([]);
  });
});
