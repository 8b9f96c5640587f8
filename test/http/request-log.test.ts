/**
 * The request log and the one-click link: the CLI opens `/link?callback=…&state=…`, and the state
 * is its one-time secret for that link. Whoever reads the server's log must not find it there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedUrl } from '../../src/http/request-log.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

const STATE = 'Zm9vYmFyYmF6cXV4c3RhdGUxMjM0NTY3ODkw';
const LINK = `/link?callback=${encodeURIComponent('http://127.0.0.1:50123/callback')}&state=${STATE}&device=laptop`;

describe(`request log lines (${engine})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const linesFor = (path: string) =>
    t.logs
      .map((line) => JSON.parse(line) as { msg?: string; url?: string })
      .filter((line) => line.msg === 'request completed' && line.url?.split('?')[0] === path);

  it('log the link page and the callback without their query string', async () => {
    await t.app.inject({ method: 'GET', url: LINK });
    await t.app.inject({ method: 'GET', url: `/link/?state=${STATE}` });
    await t.app.inject({ method: 'GET', url: `/callback?code=AAAA-BBBB-CCCC&state=${STATE}` });
    expect(t.logs.join('\n')).not.toContain(STATE);
    expect(t.logs.join('\n')).not.toContain('AAAA-BBBB-CCCC');
    expect(linesFor('/link').map((line) => line.url)).toEqual(['/link']);
    expect(linesFor('/link/').map((line) => line.url)).toEqual(['/link/']);
    expect(linesFor('/callback').map((line) => line.url)).toEqual(['/callback']);
  });

  it('keep the query string of every other path', async () => {
    await t.app.inject({ method: 'GET', url: '/functions/svc-leaderboard?period=week' });
    expect(linesFor('/functions/svc-leaderboard').map((line) => line.url)).toEqual([
      '/functions/svc-leaderboard?period=week',
    ]);
  });
});

describe('loggedUrl', () => {
  it('drops the query of /link and /callback only, however the path is written', () => {
    expect(loggedUrl(LINK)).toBe('/link');
    expect(loggedUrl(`//LINK//?state=${STATE}`)).toBe('//LINK//');
    expect(loggedUrl('/link')).toBe('/link');
    expect(loggedUrl(`/callback?state=${STATE}`)).toBe('/callback');
    expect(loggedUrl('/linked?x=1')).toBe('/linked?x=1');
    expect(loggedUrl('/functions/svc-usage-daily?from=2026-01-01')).toBe('/functions/svc-usage-daily?from=2026-01-01');
  });
});
