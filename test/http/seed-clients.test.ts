/**
 * The seed system's own clients work against us unchanged (docs/compatibility.md): requests shaped
 * exactly as its CLI (`vibescore-<op>`) and dashboard (`vibeusage-<op>`, then `/api/functions/…`)
 * send them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

/** What the seed's SDK sends with every JSON body. */
const SDK_JSON = 'application/json;charset=UTF-8';

describe(`the seed system's clients (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterAll(async () => t.close());

  const sdk = (method: 'GET' | 'POST', url: string, bearer: string | undefined, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body !== undefined ? { 'content-type': SDK_JSON } : {}),
        apikey: TEST_SECRETS.ANON_KEY,
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });

  it('links, uploads 300 buckets, pings and reads back exact totals through the aliases', async () => {
    // Dashboard: a link code for the CLI.
    const init = await sdk('POST', '/functions/vibeusage-link-code-init', user.accessToken, {});
    expect(init.statusCode, init.body).toBe(200);
    const { link_code } = init.json<{ link_code: string }>();
    // CLI: the exchange carries the anon key as its bearer.
    const exchanged = await sdk('POST', '/functions/vibescore-link-code-exchange', TEST_SECRETS.ANON_KEY, {
      link_code,
      request_id: '7d0c6f1e-3f59-4d1e-9d0c-1c2b3a4d5e6f',
      device_name: 'MacBook-Pro.local',
      platform: 'macos',
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const { token, device_id } = exchanged.json<{ token: string; device_id: string }>();
    expect(device_id).toMatch(/^[0-9a-f-]{36}$/);

    // CLI: 300 half-hour buckets with millisecond instants, as its queue holds them.
    const start = Date.UTC(2026, 9, 20, 0, 0);
    const hourly = Array.from({ length: 300 }, (_, i) => ({
      hour_start: new Date(start + i * 1_800_000).toISOString(),
      source: i % 2 === 0 ? 'codex' : 'claude',
      model: i % 2 === 0 ? 'gpt-5.2-codex' : 'claude-sonnet-4-5-20250929',
      input_tokens: 1000 + i,
      cached_input_tokens: 100,
      output_tokens: 50,
      reasoning_output_tokens: 10,
      total_tokens: 1160 + i,
    }));
    expect(hourly[0]?.hour_start).toBe('2026-10-20T00:00:00.000Z');
    const upload = await sdk('POST', '/functions/vibescore-ingest', token, { hourly });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(upload.json()).toMatchObject({ success: true, inserted: 300, skipped: 0 });
    const again = await sdk('POST', '/functions/vibescore-ingest', token, { hourly });
    expect(again.json()).toMatchObject({ inserted: 0, skipped: 300 });
    const ping = await sdk('POST', '/functions/vibescore-sync-ping', token, {});
    expect(ping.statusCode, ping.body).toBe(200);

    // Dashboard: tz and tz_offset_minutes together (tz wins), first under its name, then the /api fallback.
    const expected = hourly.reduce((n, b) => n + BigInt(b.total_tokens), 0n).toString();
    const query = 'from=2026-10-19&to=2026-10-27&tz=America%2FNew_York&tz_offset_minutes=-240';
    for (const url of [
      `/functions/vibeusage-usage-summary?${query}`,
      `/api/functions/vibeusage-usage-summary?${query}`,
      `/functions/svc-usage-summary?${query}`,
    ]) {
      const res = await sdk('GET', url, user.accessToken);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.json<{ totals: { total_tokens: string } }>().totals.total_tokens, url).toBe(expected);
    }
    const daily = await sdk('GET', `/functions/vibeusage-usage-daily?${query}`, user.accessToken);
    expect(daily.json<{ summary: { totals: { total_tokens: string } } }>().summary.totals.total_tokens).toBe(expected);
    const breakdown = await sdk('GET', `/functions/vibeusage-usage-model-breakdown?${query}`, user.accessToken);
    expect(breakdown.statusCode, breakdown.body).toBe(200);
  });

  it('serves every operation under both seed names and /api/functions, with the same access rule, outside /openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => /vibescore|vibeusage|\/api\//.test(p))).toEqual([]);
    const ops = paths
      .filter((p) => p.startsWith('/functions/svc-'))
      .flatMap((p) => Object.keys(doc.paths[p] ?? {}).map((m) => [m.toUpperCase(), p] as const));
    expect(ops.length).toBeGreaterThan(15);
    for (const [method, path] of ops) {
      const op = path.slice('/functions/svc-'.length);
      for (const bearer of [undefined, user.accessToken]) {
        const own = await sdk(method as 'GET' | 'POST', path, bearer, method === 'POST' ? {} : undefined);
        for (const alias of [
          `/functions/vibescore-${op}`,
          `/functions/vibeusage-${op}`,
          `/api/functions/vibeusage-${op}`,
          `/api/functions/svc-${op}`,
        ]) {
          const res = await sdk(method as 'GET' | 'POST', alias, bearer, method === 'POST' ? {} : undefined);
          expect(res.statusCode, `${method} ${alias} (${bearer ? 'user' : 'anonymous'}): ${res.body}`).toBe(
            own.statusCode,
          );
          expect(res.statusCode).not.toBe(404);
        }
      }
    }
  });

  it('answers an unknown seed name with a 404 problem carrying error and message', async () => {
    const res = await sdk('GET', '/functions/vibeusage-viewer-identity', user.accessToken);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'not_found',
      error: 'not_found',
      message: expect.stringContaining('/functions/'),
    });
  });
});
