/**
 * SERVER_PROCESSES > 1: the primary starts its server processes on one port, connections are served
 * by more than one of them, uploads from all of them land in the one SQLite file, a price switch
 * made by one process is loaded by the other, a process that dies is replaced, SIGTERM stops them
 * all (exit 0), and a failed start-up stops the server (exit 1).
 */
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRETS } from '../helpers/app.js';
import { childPids, request, servePriceFixture, start } from '../helpers/server-process.js';

// Each test starts real server processes (compiled by tsx on start): on a loaded 2-core machine one
// takes well over the suite's default 30 s, so these get more.
describe('a server of several processes', { timeout: 90_000 }, () => {
  const cleanup: Array<() => void> = [];
  let priceSource: http.Server;
  let pricesUrl: string;
  beforeAll(async () => {
    ({ server: priceSource, url: pricesUrl } = await servePriceFixture());
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => priceSource.close(() => resolve()));
  });
  afterEach(() => {
    for (const fn of cleanup.splice(0)) fn();
  });

  it('serves from every process into one database, replaces a process that dies, stops on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-cluster-'));
    const server = start({ DATA_DIR: dataDir, SERVER_PROCESSES: '2', PRICING_SOURCE_URL: pricesUrl });
    cleanup.push(() => {
      server.child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const port = Number((await server.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+) \(2 processes\)/))[1]);
    const workers = childPids(server.child.pid as number);
    expect(workers).toHaveLength(2);

    const signup = await request(port, 'POST', '/auth/v1/signup', {
      email: 'many@example.com',
      password: 'long enough',
    });
    expect(signup.status).toBe(200);
    const userId = (signup.json as { user: { id: string } }).user.id;
    const issued = await request(
      port,
      'POST',
      '/functions/svc-device-token-issue',
      { user_id: userId, device_name: 'laptop' },
      { authorization: `Bearer ${TEST_SECRETS.SERVICE_ROLE_KEY}` },
    );
    expect(issued.status).toBe(200);
    const token = (issued.json as { token: string }).token;

    const hour = Math.floor(Date.now() / 1_800_000) * 1_800_000 - 86_400_000;
    const upload = (k: number) =>
      request(
        port,
        'POST',
        '/functions/svc-ingest',
        {
          hourly: [
            {
              hour_start: new Date(hour - k * 1_800_000).toISOString(),
              source: 'codex',
              model: 'gpt-5',
              input_tokens: 100 + k,
              cached_input_tokens: 0,
              output_tokens: 10,
              reasoning_output_tokens: 0,
              total_tokens: 110 + k,
            },
          ],
        },
        { authorization: `Bearer ${token}` },
      );
    const results = await Promise.all(Array.from({ length: 12 }, (_, k) => upload(k)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(results.map((r) => (r.json as { inserted: number }).inserted)).toEqual(Array(12).fill(1));

    // Both processes served uploads (each request line carries its process's pid). A line is written
    // once its response was sent, so wait until all twelve have arrived.
    const ingestLines = () => server.lines().filter((l) => l.url === '/functions/svc-ingest' && l.status === 200);
    while (ingestLines().length < 12) await new Promise((resolve) => setTimeout(resolve, 10));
    const servedBy = new Set(ingestLines().map((l) => l.pid));
    expect([...servedBy].sort()).toEqual([...workers].sort());

    // Prices switched by the process that served syncPricing are loaded by the other one.
    const synced = await request(port, 'POST', '/functions/svc-pricing-sync', undefined, {
      authorization: `Bearer ${TEST_SECRETS.SERVICE_ROLE_KEY}`,
    });
    expect(synced.status).toBe(200);
    expect(synced.json).toMatchObject({ updated: true, persisted: true });
    const reloaded = await server.waitFor(
      /"pid":(\d+),[^\n]*another server process switched prices; restored genai-prices prices/,
    );
    const syncLine = () => server.lines().find((l) => l.url === '/functions/svc-pricing-sync');
    while (!syncLine()) await new Promise((resolve) => setTimeout(resolve, 10));
    const syncedBy = syncLine()?.pid;
    expect(workers).toContain(Number(reloaded[1]));
    expect(Number(reloaded[1])).not.toBe(syncedBy);

    // A process that dies is replaced, and the server goes on serving.
    process.kill(workers[0] as number, 'SIGKILL');
    await server.waitFor(/replacement server process ready/);
    const now = childPids(server.child.pid as number);
    expect(now).toHaveLength(2);
    expect(now).not.toContain(workers[0]);
    const again = await Promise.all([upload(0), upload(1), upload(2), upload(3)]);
    expect(again.map((r) => [r.status, (r.json as { skipped: number }).skipped])).toEqual(Array(4).fill([200, 1]));

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    for (const pid of now) expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
  }, 120_000);

  it('keeps the rate limits for all processes together', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-cluster-'));
    const server = start({
      DATA_DIR: dataDir,
      SERVER_PROCESSES: '2',
      INGEST_BURST: '3',
      INGEST_RATE_PER_MINUTE: '1',
      RATE_LIMIT_AUTH_PER_MINUTE: '2',
    });
    cleanup.push(() => {
      server.child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const port = Number((await server.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+) \(2 processes\)/))[1]);

    // Sign-ups per address: two a minute in all, whichever process answers.
    const signups = [];
    for (const who of ['a', 'b', 'c'])
      signups.push(
        await request(port, 'POST', '/auth/v1/signup', { email: `${who}@example.com`, password: 'long enough' }),
      );
    expect(signups.map((r) => r.status)).toEqual([200, 200, 429]);

    const userId = (signups[0]?.json as { user: { id: string } }).user.id;
    const issued = await request(
      port,
      'POST',
      '/functions/svc-device-token-issue',
      { user_id: userId, device_name: 'laptop' },
      { authorization: `Bearer ${TEST_SECRETS.SERVICE_ROLE_KEY}` },
    );
    const token = (issued.json as { token: string }).token;
    const hour = Math.floor(Date.now() / 1_800_000) * 1_800_000 - 86_400_000;
    const statuses: number[] = [];
    let retryAfter: string | string[] | undefined;
    for (let k = 0; k < 6; k += 1) {
      const r = await request(
        port,
        'POST',
        '/functions/svc-ingest',
        {
          hourly: [{ hour_start: new Date(hour).toISOString(), source: 'codex', model: 'gpt-5', total_tokens: 10 + k }],
        },
        { authorization: `Bearer ${token}` },
      );
      statuses.push(r.status);
      if (r.status === 429) retryAfter = r.headers['retry-after'];
    }
    // A burst of three for the device in all: per process it would have been three each.
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const ingestLines = () => server.lines().filter((l) => l.url === '/functions/svc-ingest');
    while (ingestLines().length < 6) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(new Set(ingestLines().map((l) => l.pid)).size).toBe(2);
  }, 120_000);

  it('stops with exit 1 when a server process cannot start', async () => {
    const server = start({ SERVER_PROCESSES: '2', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    cleanup.push(() => server.child.kill('SIGKILL'));
    expect(await server.exited).toBe(1);
    expect(server.lines().some((l) => /failed during start-up/.test(String(l.msg)))).toBe(true);
  });
});
