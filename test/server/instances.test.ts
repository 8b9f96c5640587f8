/**
 * Two separately started instances on one PostgreSQL database behave as one service: the rate
 * limits (sign-in, link-code exchange, uploads per device) hold across them, kept in the database
 * or, with REDIS_URL, in Redis; a scheduled job runs once an interval in all; a leaderboard refresh
 * asked of both at once is computed once; a price switch made by one is loaded by the other.
 * PostgreSQL only (the SQLite pass skips it); the Redis variant skips when Redis is unreachable.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dropTestSchema, TEST_SECRETS, testDatabaseUrl } from '../helpers/app.js';
import { request, servePriceFixture, start, type Started } from '../helpers/server-process.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SERVICE = { authorization: `Bearer ${TEST_SECRETS.SERVICE_ROLE_KEY}` };

/** Whether something answers PING at the Redis address (within half a second). */
async function redisReachable(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => finish(chunk.toString().startsWith('+PONG')));
  });
}

const redisUp = testDatabaseUrl ? await redisReachable() : false;

describe.skipIf(!testDatabaseUrl)('two instances on one PostgreSQL database', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  let priceSource: http.Server;
  let pricesUrl: string;
  beforeAll(async () => {
    ({ server: priceSource, url: pricesUrl } = await servePriceFixture());
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => priceSource.close(() => resolve()));
  });
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  /** Starts instance A (which migrates), then B, on one fresh schema; returns both ports. */
  async function startPair(
    env: Record<string, string>,
  ): Promise<{ a: Started; b: Started; ports: [number, number]; schema: string }> {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    cleanup.push(() => dropTestSchema(schema));
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query(`create schema "${schema}"`);
    await admin.end();
    const common = {
      DATABASE_URL: testDatabaseUrl as string,
      DATABASE_SCHEMA: schema,
      PRICING_SOURCE_URL: pricesUrl,
      ...env,
    };
    const listening = /Tokentally listening on http:\/\/127\.0\.0\.1:(\d+)/;
    const a = start(common);
    cleanup.push(() => void a.child.kill('SIGKILL'));
    const portA = Number((await a.waitFor(listening))[1]);
    const b = start(common);
    cleanup.push(() => void b.child.kill('SIGKILL'));
    const portB = Number((await b.waitFor(listening))[1]);
    return { a, b, ports: [portA, portB], schema };
  }

  async function limitsHoldAcrossInstances(extraEnv: Record<string, string>): Promise<void> {
    const { ports } = await startPair({
      INGEST_BURST: '4',
      INGEST_RATE_PER_MINUTE: '1',
      RATE_LIMIT_AUTH_PER_MINUTE: '3',
      RATE_LIMIT_EXCHANGE_PER_MINUTE: '2',
      ...extraEnv,
    });
    const port = (k: number) => ports[k % 2] as number;

    // Sign-ups and sign-ins per address: three a minute in all, alternating A, B, A, B.
    const auth = [];
    for (let k = 0; k < 4; k += 1)
      auth.push(
        await request(port(k), 'POST', '/auth/v1/signup', { email: `u${k}@example.com`, password: 'long enough' }),
      );
    expect(auth.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(Number(auth[3]?.headers['retry-after'])).toBeGreaterThan(0);

    // Link-code exchanges per address: two a minute in all.
    const exchanges = [];
    for (let k = 0; k < 3; k += 1)
      exchanges.push(
        await request(port(k), 'POST', '/functions/svc-link-code-exchange', {
          link_code: 'AAAA-BBBB-CCCC',
          request_id: `r${k}`,
        }),
      );
    expect(exchanges.map((r) => r.status === 429)).toEqual([false, false, true]);

    // A device's uploads alternate between the instances: a burst of four in all, not four each.
    const userId = (auth[0]?.json as { user: { id: string } }).user.id;
    const issued = await request(
      port(0),
      'POST',
      '/functions/svc-device-token-issue',
      { user_id: userId, device_name: 'laptop' },
      SERVICE,
    );
    expect(issued.status).toBe(200);
    const device = { authorization: `Bearer ${(issued.json as { token: string }).token}` };
    const hour = Math.floor(Date.now() / 1_800_000) * 1_800_000 - 86_400_000;
    const uploads = [];
    for (let k = 0; k < 7; k += 1) {
      uploads.push(
        await request(
          port(k),
          'POST',
          '/functions/svc-ingest',
          {
            hourly: [
              { hour_start: new Date(hour).toISOString(), source: 'codex', model: 'gpt-5', total_tokens: 10 + k },
            ],
          },
          device,
        ),
      );
    }
    expect(uploads.map((r) => r.status)).toEqual([200, 200, 200, 200, 429, 429, 429]);
    expect(Number(uploads[4]?.headers['retry-after'])).toBeGreaterThan(0);
    // Concurrent uploads from one device to both: still four in all for a fresh device.
    const second = await request(
      port(1),
      'POST',
      '/functions/svc-device-token-issue',
      { user_id: userId, device_name: 'desktop' },
      SERVICE,
    );
    const other = { authorization: `Bearer ${(second.json as { token: string }).token}` };
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, k) =>
        request(
          port(k),
          'POST',
          '/functions/svc-ingest',
          {
            hourly: [
              {
                hour_start: new Date(hour - k * 1_800_000).toISOString(),
                source: 'codex',
                model: 'gpt-5',
                total_tokens: 5,
              },
            ],
          },
          other,
        ),
      ),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(4);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(6);
  }

  it('share the rate limits through PostgreSQL', async () => {
    await limitsHoldAcrossInstances({});
  }, 120_000);

  it.skipIf(!redisUp)(
    'share the rate limits through Redis when REDIS_URL is set',
    async () => {
      await limitsHoldAcrossInstances({ REDIS_URL });
    },
    120_000,
  );

  it('run a scheduled job once an interval, refresh the leaderboard once, and pass on a price switch', async () => {
    const { a, b, ports } = await startPair({ JOBS_ENABLED: 'true', LEADERBOARD_REFRESH_SECONDS: '5' });
    const [portA, portB] = ports;

    // A price switch made by A is loaded by B.
    const synced = await request(portA, 'POST', '/functions/svc-pricing-sync', undefined, SERVICE);
    expect(synced.status).toBe(200);
    expect(synced.json).toMatchObject({ updated: true, persisted: true });
    await b.waitFor(/another server process switched prices; restored genai-prices prices/);

    // Both asked to refresh while another holds the refresh lock: one computes, the other answers its result.
    const locker = new pg.Client({ connectionString: testDatabaseUrl });
    await locker.connect();
    cleanup.push(() => locker.end());
    await locker.query(`begin; select pg_advisory_xact_lock(hashtextextended('tokentally:leaderboard-refresh', 0))`);
    const refreshes = Promise.all(
      [portA, portB].map((port) => request(port, 'POST', '/functions/svc-leaderboard-refresh', undefined, SERVICE)),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await locker.query('commit');
    const [fromA, fromB] = await refreshes;
    expect([fromA?.status, fromB?.status]).toEqual([200, 200]);
    expect((fromA?.json as { generated_at: string }).generated_at).toBe(
      (fromB?.json as { generated_at: string }).generated_at,
    );

    // The leaderboard job (every 5 s) runs on one instance an interval: runs from both, in time
    // order, start at least 4.5 s (90 % of the interval) apart, however the two timers fall.
    const runs = () =>
      [...a.lines(), ...b.lines()]
        .filter((l) => l.job === 'leaderboard.refresh' && l.level === 30)
        .map((l) => Number(l.time) - Number(l.ms))
        .sort((x, y) => x - y);
    const deadline = Date.now() + 20_000;
    while (runs().length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const starts = runs();
    expect(starts.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < starts.length; i += 1)
      expect((starts[i] as number) - (starts[i - 1] as number)).toBeGreaterThanOrEqual(4_400);
  }, 120_000);
});
