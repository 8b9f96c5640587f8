import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../../src/http/page-headers.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

describe(`the served dashboard (${engine})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('serves the app on its routes with a Content-Security-Policy of this origin only', async () => {
    for (const url of [
      '/',
      '/devices',
      '/leaderboard?period=week',
      '/u/6f1c1f0e-0000-4000-8000-000000000000',
      '/share',
      '/link?callback=x',
      '/settings',
      '/sign-in',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root"></div>');
    }
    expect(PAGE_CSP).toMatch(/default-src 'self'/);
    expect(PAGE_CSP).not.toMatch(/https?:|\*|unsafe/);
  });

  it('does not fall back to the app for the interface, the sign-in API or unknown paths', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/functions/svc-usage-summary' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/functions/svc-nope' })).headers['content-type']).toMatch(
      /problem\+json/,
    );
    expect((await t.app.inject({ method: 'GET', url: '/openapi.json' })).headers['content-type']).toMatch(/json/);
    expect((await t.app.inject({ method: 'GET', url: '/auth/v1/settings' })).headers['content-type']).toMatch(/json/);
    const other = await t.app.inject({ method: 'GET', url: '/some/other/page' });
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toMatch(/problem\+json/);
    // A browser asking for an unknown address gets the app's "Not found" page, still with status 404.
    const browser = await t.app.inject({
      method: 'GET',
      url: '/some/other/page?x=1',
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(browser.statusCode).toBe(404);
    expect(browser.headers['content-type']).toMatch(/text\/html/);
    expect(browser.headers['content-security-policy']).toBeDefined();
    const api = await t.app.inject({ method: 'GET', url: '/functions/svc-nope', headers: { accept: 'text/html' } });
    expect(api.headers['content-type']).toMatch(/problem\+json/);
    // A POST-only operation still answers 405 to a GET.
    expect((await t.app.inject({ method: 'GET', url: '/functions/svc-ingest' })).statusCode).toBe(405);
  });

  it('serves hashed assets as immutable, gzipped when asked, and the first load stays within 200 KB of gzipped JavaScript', async () => {
    const report = JSON.parse(readFileSync('dist/web/build-report.json', 'utf8')) as {
      initialJsGzipBytes: number;
      initial: Array<{ file: string; gzip: number }>;
    };
    expect(report.initialJsGzipBytes).toBeLessThanOrEqual(200 * 1024);
    const index = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const entry = /src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    expect(entry).toBeDefined();
    const plain = await t.app.inject({ method: 'GET', url: entry as string });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toMatch(/^text\/javascript/);
    const gz = await t.app.inject({ method: 'GET', url: entry as string, headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect((await t.app.inject({ method: 'GET', url: '/assets/nope.js' })).statusCode).toBe(404);
  });
});
