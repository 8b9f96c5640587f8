/**
 * The team pages in Debian's chromium: a team is created from /teams, its overview renders (totals,
 * the trend stacked by model, source and member, shares, members table, leaderboard, management), an invite link is made, and a second user
 * sees on /join what joining shares before joining, then lands on the team. Accessibility (axe),
 * no sideways scroll at 390 px and no table cell cut off there (the team tables stack their rows); screenshots
 * (light, dark, phone light and dark, the invite page) go to test-results/screenshots, and with
 * DOCS_IMAGES=1 to docs/img/ for docs/teams.md.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ingest, issueDevice, signIn, type BucketInput } from '../helpers/actors.js';
import { engine } from '../helpers/app.js';
import {
  axeViolations,
  fullPageShot,
  newContext,
  sameSession,
  scrollsSideways,
  SHOTS,
  signUpThroughForm,
  startBrowserPage,
  type BrowserEnv,
  VISUAL_CHECKS,
} from './browser.js';

vi.setConfig({ testTimeout: 120_000 });

const LEAD_EMAIL = `lead-${Date.now()}@example.com`;
/** DOCS_IMAGES=1: the screenshots docs/teams.md shows are copied to docs/img/. */
const DOCS = process.env['DOCS_IMAGES'] === '1' ? 'docs/img' : null;
if (DOCS) mkdirSync(DOCS, { recursive: true });
/** Usage on the last six days, over two sources and three models, so the trend stacks. */
const BUCKETS: BucketInput[] = Array.from({ length: 6 }, (_, d) => [
  { source: 'codex', model: 'gpt-5', input_tokens: 300_000 + d * 40_000, output_tokens: 20_000 },
  { source: 'claude', model: 'claude-sonnet-4-5', input_tokens: 120_000, output_tokens: 9_000 + d * 3_000 },
  { source: 'codex', model: 'gpt-5-mini', input_tokens: d % 2 ? 90_000 : 0, output_tokens: 4_000 },
]).flatMap((day, d) =>
  day.map((b) => ({
    ...b,
    hour_start: new Date(Math.floor(Date.now() / 1_800_000 - 48 * (d + 1)) * 1_800_000).toISOString(),
    total_tokens: b.input_tokens + b.output_tokens,
  })),
);

describe(`team pages in a browser (${engine})`, () => {
  let env: BrowserEnv;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    ({ env, ctx, page } = await startBrowserPage({
      problems,
      signUp: { email: LEAD_EMAIL, password: 'a long password', name: 'Team Lead' },
    }));
    const lead = await signIn(env.t, LEAD_EMAIL, 'a long password');
    expect((await ingest(env.t, (await issueDevice(env.t, lead)).token, BUCKETS)).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => env?.close());

  it('creates a team, shows its overview, invites, and lets a second user join after saying what is shared', async () => {
    await page.goto('/teams');
    await page.getByText('You are in no team yet.').waitFor();
    await page.getByLabel('New team name').fill('Design');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('heading', { name: 'Design', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Members', exact: true }).getByText('Team Lead').waitFor();
    await page.getByRole('region', { name: 'Leaderboard' }).getByText('Team Lead').waitFor();
    // The trend stacks by model, source or member (one layer each, the rest as "other").
    const trend = page.getByRole('region', { name: 'Trend' });
    await trend.locator('.u-legend').getByText('GPT-5', { exact: true }).waitFor();
    await trend.getByRole('button', { name: 'Source' }).click();
    await trend.locator('.u-legend').getByText('Claude Code', { exact: true }).waitFor();
    await trend.getByRole('button', { name: 'Member' }).click();
    await trend.locator('.u-legend').getByText('Team Lead', { exact: true }).waitFor();
    expect(page.url()).toContain('stack=member');
    await trend.getByRole('button', { name: 'Model' }).click();
    const manage = page.getByRole('region', { name: 'Members and invites' });
    await manage.getByRole('button', { name: 'Create invite link' }).click();
    const link = (await manage.locator('.created-secret code').textContent()) ?? '';
    const token = link.slice(link.indexOf('#') + 1);
    expect(token).toMatch(/^tt_team_/);
    expect(await axeViolations(page)).toEqual([]);
    await fullPageShot(page, `${SHOTS}/teams-light.png`);
    for (const options of VISUAL_CHECKS ? [{ dark: true }, { phone: true }, { phone: true, dark: true }] : []) {
      const other = await sameSession(env, ctx, options);
      const p = await other.newPage();
      await p.goto('/teams');
      await p.getByRole('region', { name: 'Members', exact: true }).getByText('Team Lead').waitFor();
      if (!options.phone) {
        expect(await axeViolations(p), 'axe on teams (dark)').toEqual([]);
        await fullPageShot(p, `${SHOTS}/teams-dark.png`);
        await other.close();
        continue;
      }
      expect(await scrollsSideways(p), 'teams scrolls sideways at 390 px').toBe(false);
      // The shares and members tables stack their rows: no cell is cut off at its box's edge.
      const cutOff = (await p.evaluate(`[...document.querySelectorAll(
        '[aria-labelledby="team-shares-title"] .table-wrap, [aria-labelledby="team-members-title"] .table-wrap')]
        .flatMap((wrap) => {
          const box = wrap.getBoundingClientRect();
          return [...wrap.querySelectorAll('th, td')]
            .filter((cell) => {
              const r = cell.getBoundingClientRect();
              return r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1);
            })
            .map((cell) => cell.textContent);
        })`)) as string[];
      expect(cutOff, 'cells cut off at 390 px').toEqual([]);
      expect(await p.locator('.stack-table td').count()).toBeGreaterThan(0);
      await fullPageShot(p, `${SHOTS}/teams-phone-${options.dark ? 'dark' : 'light'}.png`);
      await other.close();
    }

    const second = await newContext(env);
    const joiner = await second.newPage();
    await signUpThroughForm(joiner, `joiner-${Date.now()}@example.com`, 'a long password', 'New Member');
    await joiner.goto(`/join#${token}`);
    await joiner
      .getByText("owners and admins also see each member's usage by day, model, source and project")
      .waitFor();
    expect(await axeViolations(joiner)).toEqual([]);
    await fullPageShot(joiner, `${SHOTS}/teams-join-light.png`);
    if (DOCS)
      for (const view of ['light', 'dark', 'phone-light', 'phone-dark', 'join-light'])
        if (VISUAL_CHECKS || view === 'light' || view === 'join-light')
          copyFileSync(`${SHOTS}/teams-${view}.png`, `${DOCS}/teams-${view}.png`);
    await joiner.getByRole('button', { name: 'Join the team' }).click();
    await joiner.getByRole('heading', { name: 'Design', level: 1 }).waitFor();
    await joiner.getByText('You are a member.', { exact: false }).waitFor();
    // A member sees no members table (that is for owners and admins).
    expect(await joiner.getByRole('region', { name: 'Members', exact: true }).count()).toBe(0);
    await second.close();
    expect(problems).toEqual([]);
  });
});
