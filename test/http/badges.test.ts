import { XMLValidator } from 'fast-xml-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactNumber, escapeXml, textWidth } from '../../src/badges/text.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';

const hour = (iso: string, model: string, tokens: number) => ({
  hour_start: iso,
  source: 'opencode',
  model,
  input_tokens: tokens,
  total_tokens: tokens,
});

const TRICKY_NAME = `Ada "Lovelace" <&> O'Brien\u0001`;

describe('badges and cards', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  beforeEach(async () => {
    t = await createTestApp();
    ada = await signUp(t);
    bob = await signUp(t);
    // Set by SQL: the sign-in API refuses control characters, but an image must stay valid XML whatever is stored.
    await t.db.kysely.updateTable('users').set({ display_name: TRICKY_NAME }).where('id', '=', ada.id).execute();
    const a = await issueDevice(t, ada);
    const b = await issueDevice(t, bob);
    // now = Sunday 2026-11-01 12:00 UTC, in the ISO week from Monday 2026-10-26
    expect(
      (
        await ingest(t, a.token, [
          hour('2026-10-27T10:00:00Z', 'claude-sonnet-4', 9_000),
          hour('2026-10-28T10:00:00Z', 'gpt-5', 3_400),
          hour('2026-10-13T10:00:00Z', 'gpt-5', 5_000),
        ])
      ).statusCode,
    ).toBe(200);
    expect((await ingest(t, b.token, [hour('2026-10-27T10:00:00Z', 'gpt-5', 50_000)])).statusCode).toBe(200);
    await visibility(ada, true);
    await t.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(t.secrets.serviceRoleKey),
    });
  });
  afterEach(async () => {
    await t.close();
  });

  const visibility = (u: TestUser, enabled: boolean) =>
    t.app.inject({
      method: 'POST',
      url: '/functions/svc-public-visibility',
      headers: bearer(u.accessToken),
      payload: { enabled },
    });
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it("a public user's badge: valid XML, the snapshot's figure, cache headers, 304 on If-None-Match", async () => {
    const res = await get(`/badge/${ada.id}.svg`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(XMLValidator.validate(res.body)).toBe(true);
    expect(res.body).toContain('>AI tokens<');
    expect(res.body).toContain('>12.4K this week<');
    const etag = res.headers['etag'] as string;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await get(`/badge/${ada.id}.svg`, { 'if-none-match': inm });
      expect(again.statusCode, inm).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers['etag']).toBe(etag);
    }
    expect((await get(`/badge/${ada.id}.svg`, { 'if-none-match': '"stale"' })).statusCode).toBe(200);
    // The figures are the snapshot's: new usage shows after the next refresh, not before.
    const device = await issueDevice(t, ada, 'second');
    await ingest(t, device.token, [hour('2026-10-30T10:00:00Z', 'gpt-5', 1_000_000)]);
    expect((await get(`/badge/${ada.id}.svg`)).headers['etag']).toBe(etag);
    await t.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(t.secrets.serviceRoleKey),
    });
    expect((await get(`/badge/${ada.id}.svg`)).body).toContain('>1.01M this week<');
  });

  it('periods and metrics; the badge is as wide as its text', async () => {
    const month = (await get(`/badge/${ada.id}.svg?period=total&metric=gpt`)).body;
    expect(month).toContain('>GPT tokens<');
    expect(month).toContain('>8.4K all time<');
    const claude = (await get(`/badge/${ada.id}.svg?period=week&metric=claude`)).body;
    expect(claude).toContain('>9K this week<');
    const width = (svg: string) => Number(/^<svg[^>]* width="(\d+)"/.exec(svg)?.[1]);
    const halves = (label: string, value: string) =>
      Math.ceil(textWidth(label, 11)) + 10 + Math.ceil(textWidth(value, 11)) + 10;
    expect(width(month)).toBe(halves('GPT tokens', '8.4K all time'));
    expect(width(claude)).toBe(halves('Claude tokens', '9K this week'));
    expect(width(claude)).toBeGreaterThan(width(month));
    const bad = await get(`/badge/${ada.id}.svg?period=year`);
    expect(bad.statusCode).toBe(400);
    expect((await get(`/badge/${ada.id}.png`)).statusCode).toBe(404);
  });

  it('private, unknown and malformed ids get one identical neutral image; turning sharing off hides at once', async () => {
    const images = async (kind: 'badge' | 'card', id: string) => {
      const res = await get(`/${kind}/${id}.svg?period=month`);
      expect(res.statusCode).toBe(200);
      return [res.body, res.headers['etag']];
    };
    for (const kind of ['badge', 'card'] as const) {
      const neutral = await images(kind, bob.id);
      expect(neutral[0]).toContain(kind === 'badge' ? '>not public<' : 'not public');
      expect(XMLValidator.validate(neutral[0] as string)).toBe(true);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%3Cscript%3E', bob.id.toUpperCase()])
        expect(await images(kind, id)).toEqual(neutral);
      expect(await images(kind, ada.id)).not.toEqual(neutral);
    }
    await visibility(ada, false);
    expect(await images('badge', ada.id)).toEqual(await images('badge', bob.id));
    expect(await images('card', ada.id)).toEqual(await images('card', bob.id));
  });

  it('a card: escaped name, rank, top family, a 12-week strip; light and dark are the same size', async () => {
    for (const theme of ['light', 'dark']) {
      const res = await get(`/card/${ada.id}.svg?theme=${theme}`);
      expect(res.statusCode).toBe(200);
      expect(XMLValidator.validate(res.body)).toBe(true);
      expect(res.body).toMatch(/^<svg[^>]* width="440" height="180"/);
      expect(res.body).toContain(escapeXml(`Ada "Lovelace" <&> O'Brien`));
      expect(res.body).not.toContain('\u0001');
      expect(res.body).toContain('>#2<');
      expect(res.body).toContain('>of 2<');
      expect(res.body).toContain('>72% Claude<');
      expect(res.body).toContain(`>${compactNumber(12_400n)}<`);
      expect(res.body.match(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="\d+" rx="2"/g)).toHaveLength(12);
    }
    const light = (await get(`/card/${ada.id}.svg`)).body;
    expect(light).toContain('fill="#ffffff"');
    expect((await get(`/card/${ada.id}.svg?theme=dark`)).body).toContain('fill="#0d1117"');
    expect((await get(`/card/${ada.id}.svg?theme=sepia`)).statusCode).toBe(400);
  });

  it('in /openapi.json, callable without credentials; a bearer is ignored', async () => {
    const doc = (await get('/openapi.json')).json<{
      paths: Record<string, Record<string, { operationId: string; security: unknown[] }>>;
    }>();
    expect(doc.paths['/badge/{file}']?.['get']?.operationId).toBe('getBadge');
    expect(doc.paths['/card/{file}']?.['get']?.security).toEqual([]);
    expect((await get(`/badge/${ada.id}.svg`, bearer('garbage'))).statusCode).toBe(200);
  });
});
