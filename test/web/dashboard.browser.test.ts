/**
 * End to end in Debian's chromium: sign up through the form, link a device through the browser flow
 * against the real CLI, upload known buckets and read them back on every page; revoke the device.
 * Screenshots of every page (light, dark, phone) go to test-results/screenshots.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { humanCount, humanUsd } from '../../web/src/lib/format.js';
import { bearer, ingest, signIn, type BucketInput } from '../helpers/actors.js';
import { engine, TEST_SECRETS } from '../helpers/app.js';
import {
  axeViolations,
  sameSession,
  scrollsSideways,
  SHOTS,
  signUpThroughForm,
  startBrowserPage,
  type BrowserEnv,
  VISUAL_CHECKS,
} from './browser.js';

vi.setConfig({ testTimeout: 120_000 });

const EMAIL = `e2e-${Date.now()}@example.com`;
const PASSWORD = 'a long password';
const NAME = 'Ada Lovelace';

/** Today in New York (the browser's zone), and buckets on known days. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(Date.now());
const dayUtc = (offsetDays: number, hourUtc: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - offsetDays * 86_400_000 + hourUtc * 3_600_000).toISOString();
const day = (offsetDays: number) => dayUtc(offsetDays, 12).slice(0, 10);
const BUCKETS: BucketInput[] = [
  {
    hour_start: dayUtc(1, 15),
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 400_000,
    cached_input_tokens: 100_000,
    output_tokens: 20_000,
    total_tokens: 420_000,
  },
  {
    hour_start: dayUtc(2, 16),
    source: 'claude',
    model: 'claude-sonnet-4',
    input_tokens: 1000,
    cached_input_tokens: 300_000,
    output_tokens: 9000,
    total_tokens: 310_000,
  },
  {
    hour_start: dayUtc(3, 17),
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 200_000,
    output_tokens: 50_000,
    total_tokens: 250_000,
  },
  // 2026-03-08: the US spring-forward day (46 half-hours in New York).
  {
    hour_start: '2026-03-08T15:00:00Z',
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 7000,
    output_tokens: 500,
    total_tokens: 7500,
  },
];

/** The GoTrue client's stored session (localStorage `tokentally.auth`). */
const sessionOf = (stored: unknown) => JSON.parse(stored as string) as { access_token: string; user: { id: string } };

describe(`dashboard in a browser (${engine})`, () => {
  let env: BrowserEnv;
  let ctx: BrowserContext;
  let page: Page;
  let deviceToken = '';
  let userToken = '';
  const problems: string[] = [];

  beforeAll(async () => {
    ({ env, ctx, page } = await startBrowserPage({ problems }));
  }, 60_000);
  afterAll(async () => env?.close());

  const shoot = async (name: string, extra?: () => Promise<void>) => {
    if (!VISUAL_CHECKS) return;
    expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/${name}-light.png`, fullPage: true });
    for (const options of [{ dark: true }, { phone: true }, { phone: true, dark: true }]) {
      const other = await sameSession(env, ctx, options);
      const p = await other.newPage();
      await p.goto(page.url());
      await p.waitForLoadState('networkidle');
      await extra?.();
      const label = `${options.phone ? 'phone-' : ''}${options.dark ? 'dark' : 'light'}`;
      if (options.phone) expect(await scrollsSideways(p), `${name} scrolls sideways at 390 px`).toBe(false);
      if (options.dark && !options.phone) expect(await axeViolations(p), `axe on ${name} (dark)`).toEqual([]);
      await p.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
      await other.close();
    }
  };

  it('signs up through the form and shows what to run next', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shoot('sign-in');
    await signUpThroughForm(page, EMAIL, PASSWORD, NAME);
    const commands = page.getByLabel('Commands to install the command-line client and link this machine');
    await commands.waitFor();
    expect(await commands.textContent()).toContain(`npm install -g ${env.base}/cli/tokentally.tgz`);
    expect(await commands.textContent()).toContain(`tokentally link --server ${env.base}`);
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor(); // the session survives a reload
    userToken = (await signIn(env.t, EMAIL, PASSWORD)).accessToken;
    await shoot('overview-empty');
  });

  it('links a device through the browser flow against the real CLI', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tt-cli-home-'));
    const cli = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'link', '--server', env.base, '--device-name', 'e2e-laptop'],
      {
        env: {
          PATH: process.env['PATH'],
          HOME: home,
          XDG_CONFIG_HOME: join(home, '.config'),
          XDG_STATE_HOME: join(home, '.state'),
          BROWSER: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    cli.stdout.on('data', (d: Buffer) => (output += d.toString()));
    cli.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number>((resolve) => cli.on('exit', (code) => resolve(code ?? -1)));
    for (let i = 0; i < 300 && !/Opening (\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 50));
    const url = /Opening (\S+)/.exec(output)?.[1];
    expect(url, output).toMatch(
      new RegExp(`^${env.base}/link\\?callback=http%3A%2F%2F127\\.0\\.0\\.1%3A\\d+%2Fcallback&state=`),
    );
    await page.goto(url as string);
    await page.getByRole('heading', { name: `Link e2e-laptop to ${EMAIL}?` }).waitFor();
    await shoot('link-approve');
    await page.getByRole('button', { name: 'Link e2e-laptop' }).click();
    await page.getByRole('heading', { name: 'Linked' }).waitFor();
    expect(await exited, output).toBe(0);
    expect(output).toContain(`to the account ${EMAIL}`);
    const config = JSON.parse(readFileSync(join(home, '.config', 'tokentally', 'config.json'), 'utf8')) as {
      token: string;
    };
    deviceToken = config.token;
    expect(deviceToken).toMatch(/^tt_dev_/);
    rmSync(home, { recursive: true, force: true });
    expect((await ingest(env.t, deviceToken, BUCKETS)).statusCode).toBe(200);
  });

  it('shows the right totals, cost, heatmap cells, models and the daily table', async () => {
    await page.goto('/?range=7d');
    const summary = (
      await env.t.app.inject({
        method: 'GET',
        url: `/functions/svc-usage-summary?from=${day(6)}&to=${today}&tz=America/New_York`,
        headers: bearer(userToken),
      })
    ).json().totals;
    expect(summary.total_tokens).toBe('980000');
    await expect.poll(() => page.getByTestId('stat-tokens').textContent()).toBe(humanCount(980_000));
    expect(await page.getByTestId('stat-cost').textContent()).toBe(humanUsd(summary.total_cost_usd));
    expect(Number(summary.total_cost_usd)).toBeGreaterThan(0);
    expect(await page.getByTestId('stat-active-days').textContent()).toBe('3');
    for (const offset of [1, 2, 3])
      expect(Number(await page.locator(`rect[data-day="${day(offset)}"]`).getAttribute('data-level'))).toBeGreaterThan(
        0,
      );
    expect(await page.locator(`rect[data-day="${day(4)}"]`).getAttribute('data-level')).toBe('0');
    await page.locator('tr[data-model="gpt-5"]').waitFor();
    await page.locator('tr[data-model^="claude-sonnet-4"]').waitFor();
    // Three active days; the empty ones are folded into runs (today; the three days before the first).
    expect(await page.getByTestId('daily-table').locator('tbody tr:not(.gap-row)').count()).toBe(3);
    expect(await page.getByTestId('empty-run').count()).toBe(2);
    await page.waitForLoadState('networkidle');
    await shoot('overview');
  });

  it("asks for each of the overview's reads once, the range's first and no summary", async () => {
    const asked: string[] = [];
    const listen = (request: { url: () => string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/functions/')) asked.push(url.pathname.slice('/functions/'.length) + url.search);
    };
    page.on('request', listen);
    try {
      await page.goto('/?range=7d');
      await expect.poll(() => page.getByTestId('stat-tokens').textContent()).toBe(humanCount(980_000));
      await page.getByTestId('daily-table').waitFor();
      await page.waitForLoadState('networkidle');
    } finally {
      page.off('request', listen);
    }
    // The range's days, the period before and the breakdown start with the script (prefetched with
    // the stored session), ahead of the other cards; the days carry the totals, so no summary.
    expect(asked.slice(0, 3).map((a) => a.split('?')[0])).toEqual([
      'svc-usage-daily',
      'svc-usage-daily',
      'svc-usage-model-breakdown',
    ]);
    expect(asked.filter((a) => a.startsWith('svc-usage-summary'))).toEqual([]);
    expect(asked.filter((a, i) => asked.indexOf(a) !== i)).toEqual([]);
    for (const op of ['svc-usage-heatmap', 'svc-usage-monthly', 'svc-devices', 'svc-project-usage-summary'])
      expect(
        asked.some((a) => a.startsWith(op)),
        op,
      ).toBe(true);
    expect(
      asked.some((a) => a.startsWith('svc-usage-daily') && a.includes('source=')),
      'a layer by source',
    ).toBe(true);
  });

  it('opens a day from the heatmap, and a DST day has 46 half-hours', async () => {
    await page.goto('/?range=7d');
    await page.locator(`rect[data-day="${day(1)}"]`).click();
    await expect.poll(() => new URL(page.url()).search).toBe(`?range=custom&from=${day(1)}&to=${day(1)}`);
    await page.getByRole('heading', { name: /^Half-hours of/ }).waitFor();
    await shoot('day');
    await page.goto('/?range=custom&from=2026-03-08&to=2026-03-08');
    await page.getByRole('button', { name: 'Show trend as table' }).click();
    const rows = page.locator('#trend-title').locator('xpath=../..').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(46);
    expect(await page.getByTestId('stat-tokens').textContent()).toBe(humanCount(7500));
  });

  it('lists the device, shows a live link code', async () => {
    await page.goto('/devices');
    await page.getByTestId('device-row').filter({ hasText: 'e2e-laptop' }).waitFor();
    await page.getByRole('button', { name: 'Create a link code' }).click();
    await page.getByTestId('link-code').waitFor();
    expect(await page.getByText(/expires in \d\d:\d\d/).count()).toBe(1);
    await shoot('devices');
    // Another machine uses the code and uploads: the page notices by itself.
    const code = (await page.getByTestId('link-code').textContent()) as string;
    const exchanged = await env.t.app.inject({
      method: 'POST',
      url: '/functions/svc-link-code-exchange',
      payload: { link_code: code, request_id: 'e2e-second', device_name: 'e2e-desktop' },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(
      (
        await ingest(env.t, exchanged.json().token, [
          { hour_start: dayUtc(5, 12), source: 'gemini', model: 'gemini-2.5-pro', total_tokens: 1 },
        ])
      ).statusCode,
    ).toBe(200);
    await page.getByText('e2e-desktop is linked and its first upload has arrived.').waitFor({ timeout: 15_000 });
  });

  it('shows the caller pinned on the leaderboard, and a public profile once sharing is on', async () => {
    await env.t.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
    });
    await page.goto('/leaderboard?period=total');
    const mine = page.getByTestId('my-row').first();
    await mine.waitFor();
    expect(await mine.textContent()).toContain('Anonymous');
    // Cost beside tokens: the uploads' stored cost, in the pinned row and the table's column.
    expect(await mine.textContent()).toMatch(/\$\d[\d,.]*\d/);
    await page.getByRole('columnheader', { name: 'Cost' }).waitFor();
    await shoot('leaderboard');
    await page.goto('/settings');
    await page.getByTestId('badge-not-public').waitFor(); // no previews while sharing is off
    await page.getByRole('switch', { name: /^Public/ }).click();
    await page.getByTestId('share-link').waitFor();
    const link = await page.getByTestId('share-link').inputValue();
    expect(link).toMatch(new RegExp(`^${env.base}/share#tt_share_`));
    await shoot('settings');
    await page.goto(link);
    await page.getByRole('heading', { name: NAME }).waitFor();
    expect(await page.getByTestId('rank-total').textContent()).toBe('#1');
    await shoot('share');
    await page.goto('/leaderboard?period=total');
    await page.getByRole('link', { name: NAME }).first().click();
    await page.getByRole('heading', { name: NAME }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/u\/[0-9a-f-]{36}$/);
    await shoot('profile');
  });

  it('previews the badge and the card once sharing is on, with snippets to paste', async () => {
    const userId = sessionOf(await page.evaluate("localStorage.getItem('tokentally.auth')")).user.id;
    await page.goto('/settings');
    const loaded = (testId: string) =>
      page.getByTestId(testId).evaluate((el) => {
        const img = el as unknown as { complete: boolean; naturalWidth: number };
        return img.complete && img.naturalWidth > 0;
      });
    await expect.poll(() => loaded('badge-img')).toBe(true);
    await expect.poll(() => loaded('card-img')).toBe(true);
    // The preview opens on the first period with tokens (this UTC week unless it is still empty).
    expect(await page.getByTestId('badge-img').getAttribute('src')).toMatch(
      new RegExp(`^/badge/${userId}\\.svg(\\?period=(month|total))?$`),
    );
    const badge = await env.t.app.inject({ method: 'GET', url: `/badge/${userId}.svg?period=total` });
    expect(badge.body).not.toContain('not public');
    const markdown = await page.getByTestId('snippet-markdown').textContent();
    expect(markdown).toMatch(/\[!\[AI tokens (this week|this month|all time)\]\(/);
    expect(markdown).toContain(`${env.base}/u/${userId})`);
    expect(markdown).toContain(`${env.base}/card/${userId}.svg`);
    // Choices change the images and both snippets.
    await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'All time' }).click();
    await page.getByRole('group', { name: 'Tokens of' }).getByRole('button', { name: 'GPT' }).click();
    await page.getByRole('group', { name: 'Card theme' }).getByRole('button', { name: 'Dark' }).click();
    expect(await page.getByTestId('badge-img').getAttribute('src')).toBe(
      `/badge/${userId}.svg?period=total&metric=gpt`,
    );
    expect(await page.getByTestId('card-img').getAttribute('src')).toBe(
      `/card/${userId}.svg?period=total&metric=gpt&theme=dark`,
    );
    await expect.poll(() => loaded('badge-img')).toBe(true);
    await expect.poll(() => loaded('card-img')).toBe(true);
    expect(await page.getByTestId('snippet-markdown').textContent()).toContain(
      `${env.base}/card/${userId}.svg?period=total&metric=gpt&theme=dark`,
    );
    const html = (await page.getByTestId('snippet-html').textContent()) as string;
    expect(html).toContain(`srcset="${env.base}/card/${userId}.svg?period=total&metric=gpt&theme=dark"`);
    expect(html).toContain(`src="${env.base}/badge/${userId}.svg?period=total&metric=gpt"`);
    await shoot('settings-badges');
  });

  it('downloads the export as CSV with the known buckets, and a range as JSON', async () => {
    await page.goto('/settings');
    const exportCard = page.getByRole('region', { name: 'Export your data' });
    const [csvDownload] = await Promise.all([
      page.waitForEvent('download'),
      exportCard.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toMatch(/^tokentally-export-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync(await csvDownload.path(), 'utf8').split('\r\n');
    expect(lines[0]).toBe(
      'record,hour_start,day,device,source,model,project,project_ref,input_tokens,cached_input_tokens,output_tokens,reasoning_output_tokens,total_tokens,billable_total_tokens,cost_usd',
    );
    for (const b of BUCKETS) {
      const start = `bucket,${b.hour_start.replace('.000Z', 'Z')},,e2e-laptop,${b.source},${b.model},,,${b.input_tokens ?? 0},${b.cached_input_tokens ?? 0},${b.output_tokens ?? 0},0,${b.total_tokens},`;
      expect(
        lines.filter((l) => l.startsWith(start)),
        start,
      ).toHaveLength(1);
    }
    expect(
      lines.filter((l) => l.startsWith('bucket,') && l.includes(',e2e-desktop,gemini,gemini-2.5-pro,')),
    ).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('day,')).length).toBeGreaterThanOrEqual(4);
    await exportCard.getByText(/^Saved tokentally-export-.*\.csv/).waitFor();

    // One UTC day, as JSON: only that day's bucket.
    const oneDay = BUCKETS[0]?.hour_start.slice(0, 10) as string;
    await exportCard.getByRole('button', { name: 'JSON' }).click();
    await exportCard.getByLabel('From').fill(oneDay);
    await exportCard.getByLabel('To').fill(oneDay);
    const [jsonDownload] = await Promise.all([
      page.waitForEvent('download'),
      exportCard.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(jsonDownload.suggestedFilename()).toMatch(/^tokentally-export-\d{4}-\d{2}-\d{2}\.json$/);
    const body = JSON.parse(readFileSync(await jsonDownload.path(), 'utf8')) as {
      from: string;
      to: string;
      buckets: Array<{ total_tokens: string }>;
    };
    expect([body.from, body.to]).toEqual([oneDay, oneDay]);
    expect(body.buckets.map((b) => b.total_tokens)).toEqual(['420000']);
    await shoot('settings-export');
  });

  it('says which model prices a model the price data does not list', async () => {
    // gpt-5.2-codex has no entry of its own: it keeps its id and is priced as gpt-5.2 (docs/pricing.md).
    expect(
      (
        await ingest(env.t, deviceToken, [
          {
            hour_start: dayUtc(6, 12),
            source: 'codex',
            model: 'gpt-5.2-codex',
            input_tokens: 900,
            output_tokens: 100,
            total_tokens: 1000,
          },
        ])
      ).statusCode,
    ).toBe(200);
    await page.goto('/?range=7d');
    const row = page.locator('tr[data-model="gpt-5.2-codex"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('priced as gpt-5.2');
    expect(await page.locator('tr[data-model="gpt-5"]').textContent()).not.toContain('priced as');
  });

  it('waits for Retry-After when the server answers 429, then shows the answer', async () => {
    // The overview asks for the days (with their totals) of the range and of the period before it:
    // only the first request is refused, and its own retry must wait for Retry-After.
    const asked: Array<{ url: string; at: number }> = [];
    await page.route('**/functions/svc-usage-daily*', async (route) => {
      asked.push({ url: route.request().url(), at: Date.now() });
      if (asked.length === 1) {
        await route.fulfill({
          status: 429,
          headers: { 'retry-after': '2', 'content-type': 'application/problem+json' },
          body: JSON.stringify({ status: 429, detail: 'Too many requests.' }),
        });
      } else {
        await route.continue();
      }
    });
    try {
      const summary = (
        await env.t.app.inject({
          method: 'GET',
          url: `/functions/svc-usage-summary?from=${day(6)}&to=${today}&tz=America/New_York`,
          headers: bearer(userToken),
        })
      ).json().totals;
      await page.goto('/?range=7d');
      await expect
        .poll(() => page.getByTestId('stat-tokens').textContent(), { timeout: 10_000 })
        .toBe(humanCount(Number(summary.total_tokens)));
      const [refused] = asked;
      await expect.poll(() => asked.slice(1).some((a) => a.url === refused?.url), { timeout: 10_000 }).toBe(true);
      const retried = asked.slice(1).find((a) => a.url === refused?.url);
      expect(retried, 'the refused request is asked again').toBeDefined();
      expect((retried?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(1_900);
      expect(await page.getByText('Too many requests.').count()).toBe(0);
    } finally {
      await page.unroute('**/functions/svc-usage-daily*');
    }
  });

  // After the tests that use `userToken`: a password change ends the user's other sessions.
  it('changes the password in settings only with the current one', async () => {
    await page.goto('/settings');
    const card = page.getByRole('region', { name: 'Password' });
    const signInWith = (password: string) =>
      env.t.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        payload: { email: EMAIL, password },
      });
    // A wrong current password: the server's word, nothing changed.
    await card.getByLabel('Current password').fill('not the password');
    await card.getByLabel('New password').fill('an even longer password');
    await card.getByRole('button', { name: 'Change password' }).click();
    await card
      .getByRole('alert')
      .filter({ hasText: 'The current password is not correct; nothing was changed.' })
      .waitFor();
    expect((await signInWith(PASSWORD)).statusCode).toBe(200);
    expect(await axeViolations(page), 'axe on the password card').toEqual([]);

    await card.getByLabel('Current password').fill(PASSWORD);
    await card.getByRole('button', { name: 'Change password' }).click();
    await card.getByText('Password changed.').waitFor();
    expect(await card.getByLabel('Current password').inputValue()).toBe('');
    expect((await signInWith('an even longer password')).statusCode).toBe(200);
    expect((await signInWith(PASSWORD)).statusCode).toBe(400);
    await page.screenshot({ path: `${SHOTS}/settings-password-light.png` });

    // Back to the password the tests below sign in with.
    await card.getByLabel('Current password').fill('an even longer password');
    await card.getByLabel('New password').fill(PASSWORD);
    await card.getByRole('button', { name: 'Change password' }).click();
    // Done once the form is emptied again ("Password changed." is still shown from the first change).
    await expect.poll(() => card.getByLabel('Current password').inputValue(), { timeout: 10_000 }).toBe('');
    expect((await signInWith(PASSWORD)).statusCode).toBe(200);
  });

  it('revokes the device from the devices page; its next upload is refused', async () => {
    await page.goto('/devices');
    const row = page.getByTestId('device-row').filter({ hasText: 'e2e-laptop' });
    await row.getByRole('button', { name: 'Revoke e2e-laptop' }).click();
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => page.getByTestId('device-row').filter({ hasText: 'e2e-laptop' }).count()).toBe(0);
    expect((await ingest(env.t, deviceToken, BUCKETS.slice(0, 1))).statusCode).toBe(401);
    expect(problems.filter((p) => /Content Security Policy|Refused/.test(p))).toEqual([]);
  });

  it('says the session has ended when it can no longer be refreshed', async () => {
    const session = JSON.parse((await page.evaluate("localStorage.getItem('tokentally.auth')")) as string) as {
      access_token: string;
    };
    await env.t.app.inject({
      method: 'POST',
      url: '/auth/v1/logout?scope=global',
      headers: bearer(session.access_token),
    });
    env.t.clock.advance(2 * 3_600_000); // the access token has expired for the server
    await page.goto('/devices');
    await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
  // Last: it deletes the account every test above uses.
  it('deletes the account once the password is re-entered; a wrong password changes nothing', async () => {
    // The test before ended the session: sign in again.
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    await page.goto('/settings');
    const token = sessionOf(await page.evaluate("localStorage.getItem('tokentally.auth')")).access_token;
    const summary = () =>
      env.t.app.inject({
        method: 'GET',
        url: `/functions/svc-usage-summary?from=${day(6)}&to=${today}`,
        headers: bearer(token),
      });
    expect((await summary()).statusCode).toBe(200);

    await page.getByRole('button', { name: 'Delete account…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('This cannot be undone.');
    expect(await axeViolations(page), 'axe on the delete dialog').toEqual([]);
    await page.screenshot({ path: `${SHOTS}/settings-delete-light.png` });
    for (const options of VISUAL_CHECKS ? [{ dark: true }, { phone: true, dark: true }] : []) {
      const other = await sameSession(env, ctx, options);
      const p = await other.newPage();
      await p.goto('/settings');
      await p.getByRole('button', { name: 'Delete account…' }).click();
      await p.getByRole('dialog', { name: 'Delete your account?' }).waitFor();
      if (!options.phone) expect(await axeViolations(p), 'axe on the delete dialog (dark)').toEqual([]);
      await p.screenshot({ path: `${SHOTS}/settings-delete-${options.phone ? 'phone-' : ''}dark.png` });
      await other.close();
    }

    // A wrong password: the server's word, the dialog stays, nothing is deleted.
    const password = dialog.getByLabel('Your password');
    await password.fill('not the password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The password is not correct; nothing was deleted.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect((await summary()).statusCode).toBe(200);

    await password.fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText('Your account was deleted.').waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(await page.evaluate("localStorage.getItem('tokentally.auth')")).toBeNull();
    expect((await summary()).statusCode).toBe(401);
    await page.screenshot({ path: `${SHOTS}/deleted-light.png` });
  });
});
