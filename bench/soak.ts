/**
 * @fileoverview bench:soak — does the server stay up? On each engine: start the compiled server with
 * its scheduled jobs on (leaderboard refresh every minute), provision 200 devices of 20 users, find
 * the maximum throughput of a mixed load for 20 s (70 % uploads of 10 buckets whose counts change,
 * 20 % dashboard reads over 30 days, 10 % leaderboard pages, signed in or not), then hold 80 % of it
 * for BENCH_SOAK_MINUTES (10) minutes, with a pricing sync and a leaderboard refresh asked in the
 * middle. Prints, a minute, the requests answered, errors, p99 latency and the server's RSS; fails
 * (exit 1) on any error, on a minute whose throughput is more than 20 % below the first minute's, or
 * on RSS more than 15 % above its level in the first two minutes (the higher of their samples).
 *
 * BENCH_SOAK_MINUTE_SECONDS shortens a "minute" for a quick try; BENCH_ENGINES limits the engines.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { waitForUpdate } from '@pydantic/genai-prices';
import { closedLoop, HttpTarget, openLoop, type LoadRequest, type Outcome } from './lib/mixed-load.js';
import { BENCH_PG_URL, freshPgDatabase, pgReachable } from './lib/postgres.js';
import { benchServerEnv, BENCH_SERVICE_KEY, startServer, stopProcess } from './lib/processes.js';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const MINUTE_S = Number(process.env.BENCH_SOAK_MINUTE_SECONDS ?? 60);
const LOAD_SHARE = 0.8;
const CONNECTIONS = 32;
const USERS = 20;
const DEVICES_PER_USER = 10;

interface Actors {
  devices: string[];
  jwts: string[];
}

async function call<T>(port: number, method: string, url: string, body: unknown, bearer?: string): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function provision(port: number): Promise<Actors> {
  const actors: Actors = { devices: [], jwts: [] };
  for (let u = 0; u < USERS; u += 1) {
    const s = await call<{ access_token: string; user: { id: string } }>(port, 'POST', '/auth/v1/signup', {
      email: `soak${u}@example.com`,
      password: 'soak password',
    });
    actors.jwts.push(s.access_token);
    if (u % 2 === 0) await call(port, 'POST', '/functions/svc-public-visibility', { enabled: true }, s.access_token);
    for (let d = 0; d < DEVICES_PER_USER; d += 1) {
      actors.devices.push(
        (
          await call<{ token: string }>(
            port,
            'POST',
            '/functions/svc-device-token-issue',
            { user_id: s.user.id, device_name: `soak-${u}-${d}` },
            BENCH_SERVICE_KEY,
          )
        ).token,
      );
    }
  }
  return actors;
}

/** The mix: 70 % uploads, 20 % dashboard reads, 10 % leaderboard pages. */
function mix(actors: Actors): () => [LoadRequest, string] {
  let n = 0;
  const baseHour = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  const models = [
    ['codex', 'gpt-5-codex'],
    ['claude', 'claude-sonnet-4-5'],
    ['codex', 'gpt-5'],
    ['claude', 'claude-opus-4-1'],
  ] as const;
  return () => {
    n += 1;
    const slot = n % 10;
    if (slot < 7) {
      const token = actors.devices[n % actors.devices.length] as string;
      const hourly = Array.from({ length: 10 }, (_, k) => {
        const [source, model] = models[k % 4] as readonly [string, string];
        const input = 1000 + n * 3 + k;
        const output = 200 + n * 2 + k;
        return {
          hour_start: new Date(baseHour + k * 1_800_000).toISOString(),
          source,
          model,
          input_tokens: input,
          cached_input_tokens: 400 + k,
          output_tokens: output,
          reasoning_output_tokens: 50,
          total_tokens: input + output,
        };
      });
      return [
        {
          method: 'POST',
          path: '/functions/svc-ingest',
          headers: { authorization: `Bearer ${token}` },
          body: JSON.stringify({ hourly }),
        },
        'upload',
      ];
    }
    const jwt = actors.jwts[n % actors.jwts.length] as string;
    if (slot < 9) {
      const what =
        slot === 7
          ? `svc-usage-daily?from=${monthAgo}&to=${today}&tz=America/New_York`
          : `svc-usage-summary?from=${monthAgo}&to=${today}`;
      return [{ method: 'GET', path: `/functions/${what}`, headers: { authorization: `Bearer ${jwt}` } }, 'dashboard'];
    }
    const headers: Record<string, string> = n % 20 === 9 ? { authorization: `Bearer ${jwt}` } : {};
    return [{ method: 'GET', path: '/functions/svc-leaderboard?period=week&limit=20', headers }, 'leaderboard'];
  };
}

/** Resident set of the server and its children (MB), now. */
function rssMb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 'NaN') / 1024;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number);
}

interface Minute {
  ok: number;
  errors: number;
  latencies: number[];
  statuses: Map<string, number>;
  rss: number;
}

async function soak(name: string, serverEnv: NodeJS.ProcessEnv): Promise<boolean> {
  const server = await startServer(serverEnv);
  const target = new HttpTarget(server.port, 256);
  try {
    const actors = await provision(server.port);
    await call(server.port, 'POST', '/functions/svc-leaderboard-refresh', undefined, BENCH_SERVICE_KEY);
    const next = mix(actors);
    const max = await closedLoop(target, next, CONNECTIONS, 20);
    const rate = Math.round(max.perSecond * LOAD_SHARE);
    console.log(
      `\n${name}: maximum ${max.perSecond.toFixed(0)} req/s (${max.errors} errors, 20 s at ${CONNECTIONS} connections); soaking at ${rate} req/s for ${MINUTES} × ${MINUTE_S} s`,
    );

    const minutes: Minute[] = [];
    const fresh = (): Minute => ({ ok: 0, errors: 0, latencies: [], statuses: new Map(), rss: 0 });
    let current = fresh();
    const started = performance.now();
    const elapsed = () => (performance.now() - started) / 1000;
    const onOutcome = (o: Outcome) => {
      if (o.ok) current.ok += 1;
      else {
        current.errors += 1;
        const key = `${o.label} ${o.status}`;
        current.statuses.set(key, (current.statuses.get(key) ?? 0) + 1);
      }
      current.latencies.push(o.ms);
    };
    const report = (m: Minute, i: number) => {
      const sorted = m.latencies.sort((a, b) => a - b);
      const errs = [...m.statuses].map(([k, v]) => `${k}×${v}`).join(' ');
      console.log(
        `  minute ${String(i + 1).padStart(2)}: ${String(m.ok).padStart(7)} ok (${(m.ok / MINUTE_S).toFixed(0)}/s), ${m.errors} errors${errs ? ` (${errs})` : ''}, p99 ${percentile(sorted, 99).toFixed(1)} ms, RSS ${m.rss.toFixed(0)} MB`,
      );
    };
    const ticker = setInterval(() => {
      if (elapsed() < (minutes.length + 1) * MINUTE_S) return;
      current.rss = rssMb(server.child.pid);
      minutes.push(current);
      report(current, minutes.length - 1);
      current = fresh();
    }, 200);
    // In the middle: a pricing sync (reprices stored costs) and a leaderboard refresh, asked like any admin would.
    const middle = setTimeout(
      () => {
        const admin = (url: string) =>
          target
            .send(
              { method: 'POST', path: url, headers: { authorization: `Bearer ${BENCH_SERVICE_KEY}` } },
              `admin ${url}`,
            )
            .then(onOutcome);
        void admin('/functions/svc-pricing-sync').then(() => admin('/functions/svc-leaderboard-refresh'));
      },
      (MINUTES * MINUTE_S * 1000) / 2,
    );
    const { behind } = await openLoop(target, next, rate, 1024, onOutcome, () => minutes.length >= MINUTES);
    clearInterval(ticker);
    clearTimeout(middle);

    const errors = minutes.reduce((sum, m) => sum + m.errors, 0);
    const first = minutes[0]?.ok ?? 0;
    const slowest = Math.min(...minutes.map((m) => m.ok));
    // The level reached in the first two minutes (one sample can sit in a GC dip: 134 MB between 153 and 151).
    const rssBase = minutes.length > 1 ? Math.max(...minutes.slice(0, 2).map((m) => m.rss)) : undefined;
    const rssPeak = Math.max(...minutes.slice(2).map((m) => m.rss));
    const failures: string[] = [];
    if (errors > 0) failures.push(`${errors} request errors`);
    if (slowest < first * 0.8) failures.push(`throughput fell to ${slowest} from ${first} a minute (more than 20 %)`);
    if (rssBase !== undefined && minutes.length > 2 && rssPeak > rssBase * 1.15)
      failures.push(
        `RSS grew to ${rssPeak.toFixed(0)} MB from ${rssBase.toFixed(0)} MB, its level in the first two minutes (more than 15 %)`,
      );
    const rssNote =
      minutes.length > 2
        ? `RSS after minute 2 at most ${(((rssPeak - (rssBase ?? rssPeak)) / (rssBase ?? 1)) * 100).toFixed(1)} % above its level in minutes 1–2`
        : 'RSS growth not judged (fewer than 3 minutes)';
    if (behind > 0)
      console.log(`  ${behind} requests were not sent: 1024 were outstanding (the server fell behind the rate)`);
    console.log(
      `  ${failures.length === 0 ? 'OK' : `FAILED: ${failures.join('; ')}`} — ${errors} errors, slowest minute ${((slowest / Math.max(first, 1)) * 100).toFixed(1)} % of the first, ${rssNote}`,
    );
    return failures.length === 0;
  } finally {
    target.close();
    await stopProcess(server.child);
  }
}

/** Serves the package's own price data, so the mid-soak sync switches to (the same) data over HTTP. */
async function servePrices(): Promise<{ server: http.Server; url: string }> {
  const data = await waitForUpdate();
  if (!data) throw new Error('no price data in @pydantic/genai-prices');
  const body = JSON.stringify(data);
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/prices.json` };
}

async function main(): Promise<void> {
  console.log(
    `bench:soak — ${MINUTES} × ${MINUTE_S} s at ${LOAD_SHARE * 100} % of the measured maximum, node ${process.version}, ${os.cpus().length} cores`,
  );
  const prices = await servePrices();
  const common = benchServerEnv({
    PASSWORD_SCRYPT_COST: '32768',
    INGEST_RATE_PER_MINUTE: '100000000',
    INGEST_BURST: '100000000',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    // The soak measures staying up, not backpressure: a moment's backlog must not turn into 429s.
    INGEST_MAX_INFLIGHT: '100000',
    JOBS_ENABLED: 'true',
    LEADERBOARD_REFRESH_SECONDS: String(Math.max(5, MINUTE_S)),
    PRICING_SOURCE_URL: prices.url,
  });
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
  let ok = true;
  try {
    if (engines.includes('sqlite')) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-soak-'));
      try {
        ok =
          (await soak('SQLite (embedded, WAL), one process', { ...common, DATA_DIR: dataDir, DATABASE_URL: '' })) && ok;
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
    if (engines.includes('postgres')) {
      if (await pgReachable()) {
        const url = await freshPgDatabase('tokentally_soak');
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-soak-pg-'));
        try {
          ok =
            (await soak('PostgreSQL (local server), one process', {
              ...common,
              DATA_DIR: dataDir,
              DATABASE_URL: url,
            })) && ok;
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      } else console.log(`\nPostgreSQL at ${BENCH_PG_URL} is not reachable: skipped`);
    }
  } finally {
    prices.server.close();
  }
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
