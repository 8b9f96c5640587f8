/**
 * The dashboard's first impression (docs/dashboard.md), in Debian's chromium: a fresh account whose
 * history is older than a week, a heavy user (a year, three devices, four sources, dated model ids)
 * and an empty account, on every page, light and dark, 1280 and 390 px: no sideways scroll on a
 * phone, no serious axe violation, and what each page must say. DOCS_IMAGES=1 also writes the
 * screenshots the docs show (docs/img/dashboard-*.png).
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { humanCount, humanUsd } from '../../web/src/lib/format.js';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from '../helpers/actors.js';
import { engine, TEST_SECRETS } from '../helpers/app.js';
import {
  axeViolations,
  newContext,
  sameSession,
  scrollsSideways,
  SHOTS,
  startBrowserEnv,
  VISUAL_CHECKS,
  type BrowserEnv,
} from './browser.js';

// Four views of each page with axe: generous for a loaded CI machine (about 15 s a test on a quiet one).
vi.setConfig({ testTimeout: 300_000 });

const DOCS = process.env['DOCS_IMAGES'] === '1' ? 'docs/img' : null;
const PASSWORD = 'correct horse';
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(Date.now());
const at = (daysAgo: number, halfHour: number) =>
  new Date(Date.parse(`${today}T12:00:00Z`) - daysAgo * 86_400_000 + (halfHour - 24) * 1_800_000).toISOString();

const SOURCES: Array<[string, string]> = [
  ['claude', 'claude-sonnet-4-5-20250929'],
  ['claude', 'claude-sonnet-4-5'],
  ['codex', 'gpt-5-codex'],
  ['gemini', 'gemini-2.5-pro'],
  ['opencode', 'claude-opus-4-1'],
];

/** A year of usage on most days, spread over three devices and the sources above. */
function heavyBuckets(device: number): BucketInput[] {
  const out: BucketInput[] = [];
  for (let day = 364; day >= 0; day--) {
    if ((day * 7 + device) % 5 === 0) continue; // a few quiet days
    const [source, model] = SOURCES[(day + device) % SOURCES.length] as [string, string];
    const input = 40_000 + ((day * 131 + device * 17) % 90_000);
    out.push({
      hour_start: at(day, 18 + device * 4),
      source,
      model,
      input_tokens: input,
      cached_input_tokens: 20_000,
      output_tokens: 6000,
      total_tokens: input + 6000,
      project_key: ['tokentally', 'website', 'infra'][(day + device) % 3] as string,
    });
  }
  return out;
}

async function signInPage(env: BrowserEnv, email: string, options: { phone?: boolean } = {}) {
  const ctx = await newContext(env, options);
  const page = await ctx.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return { ctx, page };
}

describe(`the dashboard's first impression (${engine})`, () => {
  let env: BrowserEnv;
  let fresh: TestUser;
  let heavy: TestUser;
  let empty: TestUser;
  let heavyCtx: BrowserContext;
  let page: Page;
  const heavyDevices: string[] = [];

  beforeAll(async () => {
    env = await startBrowserEnv();
    [fresh, heavy, empty] = await Promise.all([
      signUp(env.t, `fresh-${Date.now()}@example.com`),
      signUp(env.t, `heavy-${Date.now()}@example.com`),
      signUp(env.t, `empty-${Date.now()}@example.com`),
    ]);
    const freshDevice = await issueDevice(env.t, fresh, 'old-laptop');
    // History from 12 to 20 days ago only: the last 7 days are empty.
    const history: BucketInput[] = [12, 13, 15, 20].map((d, i) => ({
      hour_start: at(d, 20 + i),
      source: i % 2 ? 'opencode' : 'claude',
      model: i % 2 ? 'claude-sonnet-4-5' : 'claude-sonnet-4-5-20250929',
      input_tokens: 5000 * (i + 1),
      output_tokens: 900,
      total_tokens: 5000 * (i + 1) + 900,
    }));
    expect((await ingest(env.t, freshDevice.token, history)).statusCode).toBe(200);
    for (let d = 0; d < 3; d++) {
      const device = await issueDevice(env.t, heavy, ['workstation', 'laptop', 'build-box'][d]);
      heavyDevices.push(device.deviceId);
      const buckets = heavyBuckets(d);
      for (let i = 0; i < buckets.length; i += 500)
        expect((await ingest(env.t, device.token, buckets.slice(i, i + 500))).statusCode).toBe(200);
    }
    await env.t.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh?period=total',
      headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
    });
    ({ ctx: heavyCtx, page } = await signInPage(env, heavy.email));
    if (DOCS) mkdirSync(DOCS, { recursive: true });
  }, 90_000);
  afterAll(async () => env?.close());

  /** axe in both themes at 1280 px, no sideways scroll at 390 px, screenshots of all four views. */
  const look = async (ctx: BrowserContext, p: Page, name: string, ready: (p: Page) => Promise<unknown>) => {
    if (!VISUAL_CHECKS) return;
    expect(await axeViolations(p), `axe on ${name}`).toEqual([]);
    await p.screenshot({ path: `${SHOTS}/${name}-light.png`, fullPage: true });
    if (DOCS) await p.screenshot({ path: `${DOCS}/dashboard-${name}-light.png`, fullPage: true });
    for (const options of [{ dark: true }, { phone: true }, { phone: true, dark: true }]) {
      const other = await sameSession(env, ctx, options);
      const q = await other.newPage();
      await q.goto(p.url());
      await ready(q);
      await q.waitForLoadState('networkidle');
      const label = `${options.phone ? 'phone-' : ''}${options.dark ? 'dark' : 'light'}`;
      if (options.phone) expect(await scrollsSideways(q), `${name} scrolls sideways at 390 px`).toBe(false);
      else expect(await axeViolations(q), `axe on ${name} (dark)`).toEqual([]);
      await q.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
      if (DOCS) await q.screenshot({ path: `${DOCS}/dashboard-${name}-${label}.png`, fullPage: !options.phone });
      await other.close();
    }
  };

  it('opens a fresh account on a range that has data, and says "new" once', async () => {
    const { ctx, page: p } = await signInPage(env, fresh.email);
    await p.getByTestId('opened-on').waitFor();
    expect(new URL(p.url()).searchParams.get('range')).toBe('30d');
    await expect.poll(() => p.getByTestId('stat-tokens').textContent()).not.toBe('0');
    expect(await p.getByText('vs previous').count()).toBe(0);
    expect(await p.getByTestId('stat-new').textContent()).toContain('new');
    // Tokens and billable are the same for these sources: one card, not two.
    expect(await p.getByTestId('stat-billable-tokens').count()).toBe(0);
    // Empty days are folded; the dated and undated ids are one model, with the date in its detail.
    await p.getByTestId('empty-run').first().waitFor();
    expect(await p.getByTestId('daily-table').locator('tbody tr').count()).toBeLessThan(12);
    // (The server already files both under one id; the dashboard names it one way.)
    const model = p.locator('tr[data-model="claude-sonnet-4-5"]');
    expect(await model.count()).toBeGreaterThan(0);
    expect(await model.first().textContent()).toContain('Claude Sonnet 4.5');
    expect(await p.locator('tr[data-model*="2025"]').count()).toBe(0);
    expect(await p.locator('.group-row').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('OpenCode'), expect.stringContaining('Claude Code')]),
    );
    // A range without data says where the data is, one click away.
    await p.goto('/?range=7d');
    await p.getByTestId('data-elsewhere').getByRole('button').click();
    await expect.poll(() => new URL(p.url()).searchParams.get('range')).toBe('30d');
    await p.getByTestId('stat-tokens').waitFor();
    await look(ctx, p, 'fresh', (q) => q.getByTestId('daily-table').waitFor());
    await ctx.close();
  });

  it('draws a heavy year by month from the first usage, with range totals in the legend', async () => {
    await page.goto('/?range=all');
    await page.locator('.trend-chart canvas').waitFor();
    const first = heavyBuckets(0)[0]?.hour_start.slice(0, 10) as string;
    const dates = (await page.locator('.range-dates').textContent()) ?? '';
    expect(
      dates.startsWith(new Date(`${first}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' })),
    ).toBe(true);
    expect(await page.getByText(/One bar per (week|month)/).count()).toBe(1);
    expect(await page.locator('.u-legend').textContent()).toContain('Range total');
    expect(await page.locator('.u-legend').textContent()).not.toContain('—');
    // Cost beside tokens, and the toggle drives the tables.
    await page.goto('/?range=30d');
    const head = page.getByTestId('daily-table').locator('thead th');
    await head.first().waitFor();
    expect(await head.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Cost')]));
    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Cost' }).click();
    await expect.poll(async () => (await head.nth(1).textContent()) ?? '').toContain('Cost');
    await page.goto('/');
    await page.locator('.trend-chart canvas').waitFor();
    // Each project's cost beside its tokens.
    await expect.poll(() => page.locator('.project-list li').count()).toBe(3);
    expect(await page.locator('.project-list li').first().textContent()).toMatch(/ · \$\d/);
    await look(heavyCtx, page, 'overview', (q) => q.locator('.trend-chart canvas').waitFor());
  });

  it('lists a device as soon as it links, how each syncs, and links one in steps that sync automatically', async () => {
    // A device linked a moment ago, before its first upload, is listed at once.
    await issueDevice(env.t, heavy, 'new-desktop');
    await page.goto('/devices');
    await page.getByTestId('device-row').filter({ hasText: 'new-desktop' }).waitFor();
    expect(await page.getByTestId('device-row').count()).toBe(4);
    expect(await page.getByText(/in \d+ (seconds?|minutes?)/).count()).toBe(0);
    expect(await page.getByTestId('sync-mode').allTextContents()).toContain('not yet synced');
    // Each device's last 30 days, tokens and cost, one click from the overview filtered to it.
    const laptopUsage = page.getByTestId('device-row').filter({ hasText: 'laptop' }).getByTestId('device-usage');
    await expect.poll(() => laptopUsage.textContent()).toMatch(/tokens, \$/);
    const from = new Date(Date.parse(`${today}T12:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    const laptop = (
      await env.t.app.inject({
        method: 'GET',
        url: `/functions/svc-usage-summary?from=${from}&to=${today}&tz=America/New_York&device_id=${heavyDevices[1]}`,
        headers: bearer(heavy.accessToken),
      })
    ).json<{ totals: { total_tokens: string; total_cost_usd: string } }>().totals;
    expect(await laptopUsage.textContent()).toBe(
      `${humanCount(laptop.total_tokens)} tokens, ${humanUsd(laptop.total_cost_usd)}`,
    );
    expect(
      await page.getByTestId('device-row').filter({ hasText: 'new-desktop' }).getByTestId('device-usage').textContent(),
    ).toBe('no usage');
    await laptopUsage.getByRole('link').click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await expect.poll(() => page.getByTestId('stat-tokens').textContent()).toBe(humanCount(laptop.total_tokens));
    expect(await page.getByTestId('stat-cost').textContent()).toBe(humanUsd(laptop.total_cost_usd));
    // The filter shows the device; choosing all devices shows the account's totals again.
    const picker = page.getByLabel('Device');
    expect(await picker.inputValue()).toBe(heavyDevices[1]);
    await picker.selectOption('');
    await expect.poll(() => new URL(page.url()).searchParams.get('device')).toBe(null);
    await expect.poll(() => page.getByTestId('stat-tokens').textContent()).not.toBe(humanCount(laptop.total_tokens));
    await page.goto('/devices');
    await page.getByTestId('device-row').first().waitFor();
    await page.getByRole('button', { name: 'Create a link code' }).click();
    expect(await page.getByLabel('Commands to install the client and link with this code').textContent()).toContain(
      'tokentally hooks install',
    );
    await look(heavyCtx, page, 'devices', (q) => q.getByTestId('device-row').first().waitFor());
  });

  it('shows initials on the leaderboard, and jumps to my row', async () => {
    await page.goto('/leaderboard?period=total');
    const mine = page.getByTestId('my-row').first();
    await mine.waitFor();
    expect(await page.locator('.board .avatar-initials').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Jump to me' }).click();
    await look(heavyCtx, page, 'leaderboard', (q) => q.getByTestId('my-row').first().waitFor());
  });

  it('has an account menu, a menu on a phone, a guide and a "Not found" page', async () => {
    expect(await page.getByTestId('account-email').textContent()).toBe(heavy.email);
    const phone = await sameSession(env, heavyCtx, { phone: true });
    const p = await phone.newPage();
    await p.goto('/settings');
    await p.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    expect(await p.getByRole('link', { name: 'Devices' }).isVisible()).toBe(false);
    await p.getByRole('button', { name: 'Menu' }).click();
    await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Devices' }).click();
    await p.getByRole('heading', { name: 'Devices' }).waitFor();
    await phone.close();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await look(heavyCtx, page, 'settings', (q) => q.getByRole('heading', { name: 'Settings', exact: true }).waitFor());
    await page.goto('/guide');
    await page.getByRole('heading', { name: 'User guide' }).waitFor();
    expect(await page.textContent('main')).toContain('tokentally hooks install');
    await look(heavyCtx, page, 'guide', (q) => q.getByRole('heading', { name: 'User guide' }).waitFor());
  });

  it('tells an empty account what to run, automatic sync included', async () => {
    const { ctx, page: p } = await signInPage(env, empty.email);
    const commands = p.getByLabel('Commands to install the command-line client and link this machine');
    await commands.waitFor();
    expect(await commands.textContent()).toContain('tokentally hooks install');
    await look(ctx, p, 'empty', (q) => q.getByRole('heading', { name: 'Link your first machine' }).waitFor());
    await ctx.close();
  });
});
