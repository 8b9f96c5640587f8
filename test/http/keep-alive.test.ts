/**
 * A keep-alive client never sees its connection reset: thousands of hostile requests through one
 * `http.Agent({ keepAlive: true })`, 8 in flight, over a real socket; every one gets an answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

interface Shot {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body without Content-Length (chunked). */
  chunked?: boolean;
}

interface Outcome {
  reusedSocket?: boolean;
  status?: number;
  contentType?: string;
  error?: string;
}

function send(agent: http.Agent, port: number, shot: Shot): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers = { ...shot.headers };
    if (shot.body && !shot.chunked) headers['content-length'] = String(shot.body.length);
    // Node chunks a body only for methods that usually carry one; for GET, HEAD, DELETE and OPTIONS
    // it would send the bytes unframed, which is not HTTP (the server rightly answers 400 and closes).
    if (shot.body && shot.chunked && headers['transfer-encoding'] === undefined)
      headers['transfer-encoding'] = 'chunked';
    const req = http.request(
      { host: '127.0.0.1', port, method: shot.method, path: shot.path, headers, agent },
      (res) => {
        res.resume();
        // Settled once the request is closed too: only then is its socket back in the agent's pool.
        res.on('end', () =>
          req.once('close', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              reusedSocket: req.reusedSocket,
            }),
          ),
        );
        res.on('error', (error) =>
          resolve({ error: `${(error as NodeJS.ErrnoException).code ?? error.message} (response)` }),
        );
      },
    );
    req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    if (shot.body) req.end(shot.body);
    else req.end();
  });
}

const OPERATIONS: Array<[string, string]> = [
  ['POST', '/functions/svc-ingest'],
  ['POST', '/functions/svc-sync-ping'],
  ['POST', '/functions/svc-link-code-init'],
  ['POST', '/functions/svc-link-code-exchange'],
  ['POST', '/functions/svc-device-token-issue'],
  ['GET', '/functions/svc-usage-summary'],
  ['GET', '/functions/svc-usage-daily'],
  ['GET', '/functions/svc-usage-heatmap'],
  ['GET', '/functions/svc-leaderboard'],
  ['GET', '/functions/svc-debug-auth'],
  ['POST', '/functions/svc-public-visibility'],
  ['GET', '/auth/v1/user'],
  ['POST', '/auth/v1/token?grant_type=password'],
  ['GET', '/openapi.json'],
  ['GET', '/nowhere'],
];

const shotArb = (bearers: string[]) =>
  fc.record({
    op: fc.constantFrom(...OPERATIONS),
    method: fc.option(fc.constantFrom('PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'GET', 'POST'), { nil: undefined }),
    query: fc.constantFrom(
      '',
      '?tz=Mars/Olympus',
      '?tz=%00',
      '?from=2026-13-40&to=x',
      '?tz=America/New_York&tz_offset_minutes=-300',
      '?%zz',
      '?a=' + 'x'.repeat(5000),
    ),
    bearer: fc.option(fc.constantFrom(...bearers, 'garbage', 'a.b.c'), { nil: undefined }),
    contentType: fc.constantFrom(
      'application/json',
      'application/json;charset=UTF-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
    ),
    body: fc.oneof(
      {
        weight: 12,
        arbitrary: fc.oneof(
          fc.constant(undefined),
          fc.constant('{"hourly":[]}'),
          fc.constant('{"hourly":[{"hour_start":"2026-10-01T10:00:00Z","total_tokens":1}]}'),
          fc.constant('{'),
          fc.constant('[['.repeat(40)),
          fc.constant('{"enabled":true,"__proto__":{"x":1}}'),
          fc.json({ maxDepth: 4 }),
        ),
      },
      // Bodies over the 1 MiB limit, less often (each moves megabytes).
      {
        weight: 1,
        arbitrary: fc.constantFrom('x'.repeat(2 * 1024 * 1024), '{"pad":"' + 'y'.repeat(1024 * 1024 + 10) + '"}'),
      },
    ),
    chunked: fc.boolean(),
    oddHeader: fc.constantFrom<Record<string, string>>(
      {},
      { 'x-odd': 'caf\u00e9 ;;= \t"' },
      { accept: '*/*;q=abc' },
      { 'content-encoding': 'gzip' },
      { expect: '100-continue' },
      { 'transfer-encoding': 'identity' },
    ),
  });

describe(`keep-alive connections (${engine})`, () => {
  let t: TestApp;
  let port: number;
  let bearers: string[];

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signUp(t);
    bearers = [user.accessToken, (await issueDevice(t, user)).token, TEST_SECRETS.SERVICE_ROLE_KEY];
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  it('a body over the limit gets its 413 problem document, and the connection stays usable', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (const chunked of [false, true]) {
      const res = await send(agent, port, {
        method: 'POST',
        path: '/functions/svc-ingest',
        headers: { authorization: `Bearer ${bearers[1]}`, 'content-type': 'application/json' },
        body: Buffer.alloc(12 * 1024 * 1024, 0x20),
        chunked,
      });
      expect(res).toMatchObject({ status: 413, contentType: 'application/problem+json; charset=utf-8' });
      const next = await send(agent, port, { method: 'GET', path: '/healthz', headers: {} });
      expect(next).toMatchObject({ status: 200, reusedSocket: true });
    }
    agent.destroy();
  });

  it('a HEAD refused by the HTTP parser gets an answer without a body, even when parsing stopped inside its request line', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    // `Transfer-Encoding: identity` on a request leaves the parser unable to frame what follows.
    const first = await send(agent, port, {
      method: 'HEAD',
      path: '/auth/v1/token?grant_type=password',
      headers: { 'transfer-encoding': 'identity' },
    });
    const second = await send(agent, port, {
      method: 'HEAD',
      path: `/functions/svc-ingest?a=${'x'.repeat(5000)}`,
      headers: {},
    });
    agent.destroy();
    expect(first.error).toBeUndefined();
    expect(second).toMatchObject({ status: 400, contentType: 'application/problem+json; charset=utf-8' });
  });

  it('replays 3000 hostile requests through one keep-alive agent, 8 in flight, with zero resets', async () => {
    const seed = Number(process.env.FC_SEED ?? 20261124);
    console.log(`keep-alive replay seed ${seed}`);
    const shots = fc.sample(shotArb(bearers), { seed, numRuns: 3000 }).map((s): Shot => {
      const method = s.method ?? s.op[0];
      const headers: Record<string, string> = { ...s.oddHeader };
      if (s.bearer) headers.authorization = `Bearer ${s.bearer}`;
      const withBody = s.body !== undefined && method !== 'GET' && method !== 'HEAD';
      if (withBody) headers['content-type'] = s.contentType;
      if (!withBody) delete headers['content-encoding'];
      return {
        method,
        path: s.op[1] + (s.op[1].includes('?') ? '' : s.query),
        headers,
        ...(withBody ? { body: Buffer.from(s.body ?? ''), chunked: s.chunked } : {}),
      };
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < shots.length) {
        const shot = shots[next++] as Shot;
        const out = await send(agent, port, shot);
        const described = `${shot.method} ${shot.path.slice(0, 80)} ${JSON.stringify({ ...shot.headers, authorization: undefined })} body ${shot.body?.length ?? '-'}${shot.chunked ? ' chunked' : ''}`;
        if (out.error) failures.push(`${out.error}: ${described}`);
        else {
          statuses.set(out.status ?? 0, (statuses.get(out.status ?? 0) ?? 0) + 1);
          const what = `${out.status} ${out.contentType}: ${described}`;
          if (
            (out.status ?? 0) >= 400 &&
            shot.method !== 'HEAD' &&
            !String(out.contentType).startsWith('application/problem+json')
          )
            failures.push(what);
          if ((out.status ?? 0) >= 500) failures.push(what);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    agent.destroy();
    if (process.env.KEEPALIVE_DUMP)
      (await import('node:fs')).writeFileSync(process.env.KEEPALIVE_DUMP, failures.join('\n'));
    expect(failures.slice(0, 20)).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(shots.length);
  }, 120_000);
});
