import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as cardPng from '../../src/badges/card-png.js';
import { svgToPng } from '../../src/badges/card-png.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';

vi.mock('../../src/badges/card-png.js', async (importOriginal) => {
  const original = await importOriginal<typeof cardPng>();
  return { ...original, svgToPng: vi.fn(original.svgToPng) };
});

const hour = (iso: string, source: string, model: string, tokens: number) => ({
  hour_start: iso,
  source,
  model,
  input_tokens: tokens,
  total_tokens: tokens,
});

const HOSTILE_NAME = `Ada "</title><script>alert(1)</script>' & co`;
const FIELDS = ['heatmap', 'totals', 'cost', 'models', 'sources', 'streaks', 'ranks'] as const;
const NONE = Object.fromEntries(FIELDS.map((f) => [f, false]));

/** Width and height of a PNG from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe(`public profile pages (${engine})`, () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    ada = await signUp(t);
    bob = await signUp(t);
    await t.db.kysely.updateTable('users').set({ display_name: HOSTILE_NAME }).where('id', '=', ada.id).execute();
    const device = await issueDevice(t, ada);
    // now = Sunday 2026-11-01 12:00 UTC: three days in a row, then one more a week earlier.
    const res = await ingest(t, device.token, [
      hour('2026-10-30T10:00:00Z', 'claude', 'claude-sonnet-4', 9_000),
      hour('2026-10-31T10:00:00Z', 'codex', 'gpt-5', 3_000),
      hour('2026-11-01T10:00:00Z', 'claude', 'claude-sonnet-4', 1_000),
      hour('2026-10-20T10:00:00Z', 'gemini', 'gemini-2.5-pro', 500),
    ]);
    expect(res.statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/functions/svc-public-visibility',
      headers: bearer(ada.accessToken),
      payload: { enabled: true },
    });
    await t.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(t.secrets.serviceRoleKey),
    });
  });
  afterAll(async () => t.close());

  const save = (u: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: '/functions/svc-profile-settings', headers: bearer(u.accessToken), payload });
  const page = (user: string, u?: TestUser) =>
    t.app.inject({
      method: 'GET',
      url: `/functions/svc-public-profile?user=${encodeURIComponent(user)}`,
      headers: u ? bearer(u.accessToken) : {},
    });

  it('handles: the rules, case-insensitive uniqueness, set and clear; the uuid address keeps working', async () => {
    const initial = await t.app.inject({
      method: 'GET',
      url: '/functions/svc-profile-settings',
      headers: bearer(ada.accessToken),
    });
    expect(initial.json()).toEqual({
      handle: null,
      fields: { ...NONE, totals: true, ranks: true },
      profile_path: `/u/${ada.id}`,
    });
    for (const bad of ['ab', 'a'.repeat(31), 'ada_l', 'ada l', '-ada', 'ada-', 'ad--a', 'admin', 'Settings', 'émile'])
      expect((await save(ada, { handle: bad })).statusCode, bad).toBe(400);
    const set = await save(ada, { handle: '  Ada-L ' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ handle: 'ada-l', profile_path: '/u/ada-l' });
    expect((await save(bob, { handle: 'ADA-L' })).statusCode).toBe(409);
    expect((await save(ada, { handle: 'ada-l' })).statusCode).toBe(200); // one's own again
    expect((await save(ada, { extra: 1 })).statusCode).toBe(400);

    for (const address of ['ada-l', 'ADA-L', ada.id, ada.id.toUpperCase()]) {
      const res = await page(address);
      expect(res.statusCode, address).toBe(200);
      expect(res.json()).toMatchObject({ user_id: ada.id, handle: 'ada-l', is_public: true });
    }
    // Not public (bob), unknown: the same 403 for everyone but the owner, who sees their own.
    expect((await save(bob, { handle: 'bob-b' })).statusCode).toBe(200);
    for (const address of ['bob-b', bob.id, 'nobody-here', '00000000-0000-4000-8000-000000000000', 'x!'])
      expect((await page(address, ada)).statusCode, address).toBe(403);
    expect((await page('bob-b', bob)).json()).toMatchObject({ user_id: bob.id, is_public: false });

    // Cleared: the handle is free for another, the uuid address still works.
    expect((await save(bob, { handle: null })).json()).toMatchObject({ handle: null });
    expect((await save(ada, { handle: '' })).json()).toMatchObject({ handle: null, profile_path: `/u/${ada.id}` });
    expect((await page('ada-l')).statusCode).toBe(403);
    expect((await page(ada.id)).statusCode).toBe(200);
    expect((await save(bob, { handle: 'ada-l' })).statusCode).toBe(200);
    expect((await save(bob, { handle: null })).statusCode).toBe(200);
    expect((await save(ada, { handle: 'ada-l' })).statusCode).toBe(200);
  });

  it('answers only the fields switched on, each switch alone', async () => {
    const base = ['user_id', 'handle', 'display_name', 'avatar_url', 'is_public', 'fields', 'from', 'to'];
    expect((await save(ada, { fields: NONE })).json().fields).toEqual(NONE);
    expect(Object.keys((await page('ada-l')).json()).sort()).toEqual([...base].sort());
    const expected: Record<(typeof FIELDS)[number], string[]> = {
      heatmap: ['heatmap'],
      totals: ['totals'],
      cost: ['totals'],
      models: ['models'],
      sources: ['sources'],
      streaks: ['streaks'],
      ranks: ['ranks'],
    };
    for (const field of FIELDS) {
      await save(ada, { fields: { ...NONE, [field]: true } });
      const body = (await page('ada-l')).json();
      expect(Object.keys(body).sort(), field).toEqual([...base, ...expected[field]].sort());
      const text = JSON.stringify(body);
      expect(text.includes('total_cost_usd'), field).toBe(field === 'cost');
    }
    await save(ada, { fields: { ...NONE, models: true, sources: true, totals: true, streaks: true, heatmap: true } });
    const all = (await page('ada-l')).json();
    expect(all.totals).toMatchObject({ total_tokens: '13500' });
    expect(all.models.map((m: { model: string }) => m.model)).toHaveLength(3);
    expect(all.models[0]).toMatchObject({ total_tokens: '10000' });
    expect(all.sources.map((s: { source: string }) => s.source)).toEqual(['claude', 'codex', 'gemini']);
    expect(all.streaks).toEqual({ current_days: 3, longest_days: 3 });
    expect(all.heatmap.active_days).toBe(4);
    expect(all.heatmap.weeks.length).toBeGreaterThanOrEqual(52);
    // with cost: per model and source too
    await save(ada, { fields: { cost: true, ranks: true } });
    const priced = (await page('ada-l')).json();
    expect(priced.totals.total_cost_usd).toMatch(/^\d+\.\d{6}$/);
    expect(priced.models[0].total_cost_usd).toMatch(/^\d+\.\d{6}$/);
    expect(priced.ranks.map((r: { period: string; rank: number }) => [r.period, r.rank])).toEqual([
      ['week', 1],
      ['month', 1],
      ['total', 1],
    ]);
  });

  it('writes escaped Open Graph and Twitter tags into a public profile page, none for a private one', async () => {
    await save(ada, { fields: { ...NONE, totals: true, ranks: true } });
    for (const address of ['ada-l', ada.id]) {
      const res = await t.app.inject({ method: 'GET', url: `/u/${address}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const html = res.body;
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain('<script>alert');
      expect(html).not.toMatch(/<title>Tokentally<\/title>/);
      expect(html).toContain(
        '<meta property="og:title" content="Ada &quot;&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39; &amp; co · Tokentally" />',
      );
      expect(html).toContain(`<meta property="og:url" content="${t.config.publicUrl}/u/ada-l" />`);
      expect(html).toContain(
        `<meta property="og:image" content="${t.config.publicUrl}/card/${ada.id}.png?period=total" />`,
      );
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
      expect(html).toContain('<meta property="og:image:width" content="880" />');
      expect(html).toMatch(/og:description" content="13\.5K AI tokens all time · #1 of 1 on the leaderboard/);
      expect(html.match(/<title>/g)).toHaveLength(1);
    }
    // Ranks hidden: no card image (it shows the rank), and the rank is not in the description.
    await save(ada, { fields: { ranks: false } });
    const noRank = (await t.app.inject({ method: 'GET', url: '/u/ada-l' })).body;
    expect(noRank).toContain('<meta name="twitter:card" content="summary" />');
    expect(noRank).not.toContain('og:image');
    expect(noRank).not.toContain('#1');
    for (const address of [bob.id, 'nobody-here']) {
      const html = (await t.app.inject({ method: 'GET', url: `/u/${address}` })).body;
      expect(html).not.toContain('og:');
      expect(html).toContain('<title>Tokentally</title>');
    }
  });

  it('serves the card as a PNG of twice its size, cached, with an ETag and 304', async () => {
    const first = await t.app.inject({ method: 'GET', url: `/card/${ada.id}.png?period=total` });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(pngSize(first.rawPayload)).toEqual({ width: 880, height: 360 });
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"png-[\w-]+"$/);
    const drawn = vi.mocked(svgToPng).mock.calls.length;
    const again = await t.app.inject({ method: 'GET', url: `/card/${ada.id}.png?period=total` });
    expect(vi.mocked(svgToPng).mock.calls.length).toBe(drawn); // from the cache, not drawn again
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const cached = await t.app.inject({
      method: 'GET',
      url: `/card/${ada.id}.png?period=total`,
      headers: { 'if-none-match': etag },
    });
    expect(cached.statusCode).toBe(304);
    const dark = await t.app.inject({ method: 'GET', url: `/card/${ada.id}.png?theme=dark` });
    expect(dark.headers['etag']).not.toBe(etag);
    // Anyone else gets the neutral card, as the SVG does; other extensions stay 404.
    const other = await t.app.inject({ method: 'GET', url: `/card/${bob.id}.png` });
    expect(other.headers['content-type']).toBe('image/png');
    expect((await t.app.inject({ method: 'GET', url: `/card/${ada.id}.gif` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/badge/${ada.id}.png` })).statusCode).toBe(404);
  });
});
