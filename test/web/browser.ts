/**
 * @fileoverview Browser-test helpers: one real server per file (listening on a port), Debian's
 * chromium driven by playwright-core (a fresh profile per launch), axe-core checks, screenshots into test-results/.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ManualClock } from '../../src/clock.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const SHOTS = 'test-results/screenshots';

/**
 * How a page looks (other themes and widths, axe-core, screenshots) does not depend on the database
 * engine: CI runs the browser tests in the SQLite pass only (vitest.config.ts). Run on PostgreSQL by
 * hand, a browser test drives the same flows and assertions without those views.
 */
export const VISUAL_CHECKS = engine === 'sqlite';

export interface BrowserEnv {
  t: TestApp;
  base: string;
  browser: Browser;
  profileDir: string;
  close(): Promise<void>;
}

/** A port free at the moment (for a server whose settings must name its own address before it listens). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** One server and browser; `options.port`/`env` when the app's settings must name its address (PUBLIC_URL). */
export async function startBrowserEnv(
  options: { port?: number; env?: Record<string, string> } = {},
): Promise<BrowserEnv> {
  const t = await createTestApp({ clock: new ManualClock(Date.now()), ...(options.env ? { env: options.env } : {}) });
  await t.app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  const profileDir = mkdtempSync(join(tmpdir(), 'tt-chromium-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  mkdirSync(SHOTS, { recursive: true });
  return {
    t,
    base: `http://127.0.0.1:${address.port}`,
    browser,
    profileDir,
    close: async () => {
      await browser.close();
      await t.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

export async function newContext(
  env: BrowserEnv,
  options: { dark?: boolean; phone?: boolean; timezoneId?: string } = {},
): Promise<BrowserContext> {
  return env.browser.newContext({
    baseURL: env.base,
    viewport: options.phone ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    timezoneId: options.timezoneId ?? 'America/New_York',
    locale: 'en-US',
  });
}

const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

/** Serious or critical accessibility violations on the page (axe-core). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  // A string expression: this file is compiled without DOM types.
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

/**
 * The whole page as an image, taken from the top: a full-page screenshot of a page scrolled down
 * (after clicking a button low on it) draws the sticky top bar where the view was, over the content.
 */
export async function fullPageShot(page: Page, path: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path, fullPage: true });
}

/** Whether the page scrolls sideways (it must not, down to 390 px). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return (await page.evaluate(
    'document.documentElement.scrollWidth > document.documentElement.clientWidth + 1',
  )) as boolean;
}

export async function signUpThroughForm(page: Page, email: string, password: string, name: string): Promise<void> {
  await page.goto('/sign-up');
  await page.getByLabel('Display name (optional)').fill(name);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

/**
 * A test file's usual start: a server and browser, one page in a context of its own whose console
 * errors are pushed to `problems`, and, given `signUp`, a user signed up through the form on it.
 * Call it in `beforeAll`; `env.close()` in `afterAll` ends it all.
 */
export async function startBrowserPage(
  options: {
    env?: Record<string, string>;
    problems?: string[];
    signUp?: { email: string; password: string; name: string };
  } = {},
): Promise<{ env: BrowserEnv; ctx: BrowserContext; page: Page }> {
  const env = await startBrowserEnv(options.env ? { env: options.env } : {});
  const ctx = await newContext(env);
  const page = await ctx.newPage();
  const problems = options.problems;
  if (problems)
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
  if (options.signUp) await signUpThroughForm(page, options.signUp.email, options.signUp.password, options.signUp.name);
  return { env, ctx, page };
}

/** Copies a signed-in context's session into a fresh one (another theme or viewport, same user). */
export async function sameSession(
  env: BrowserEnv,
  from: BrowserContext,
  options: Parameters<typeof newContext>[1],
): Promise<BrowserContext> {
  const state = await from.storageState();
  const ctx = await env.browser.newContext({
    baseURL: env.base,
    viewport: options?.phone ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    colorScheme: options?.dark ? 'dark' : 'light',
    timezoneId: options?.timezoneId ?? 'America/New_York',
    locale: 'en-US',
    storageState: state,
  });
  return ctx;
}
