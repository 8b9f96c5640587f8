/**
 * @fileoverview bench:hostile — what a hostile body costs the server (docs/security.md, "Input and
 * responses"). Starts the compiled server on a fresh SQLite database, signs up, links a device,
 * then:
 *
 * 1. sends each hostile body of about 1 MiB (arrays of `{}`, buckets of wrong types, thousands of
 *    unknown fields, a megabyte-long field name; to the upload and to the anonymous link-code
 *    exchange) BENCH_HOSTILE_REPEAT times (default 10) and prints the status, the answer's size and
 *    the server's CPU time per request (user + system, all threads: an upper bound on its
 *    event-loop time);
 * 2. measures `/healthz` from one connection, request after request, for BENCH_SECONDS (default
 *    15): first alone, then while the device sends one hostile upload a second, and prints p50,
 *    p99 and the maximum of each.
 *
 * Targets: ≤ 20 ms of server time and ≤ 16 KB of answer per hostile body; `/healthz` p99 ≤ 50 ms
 * under one hostile body a second.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { benchServerEnv, cpuSeconds, startServer, stopProcess } from './lib/processes.js';

const REPEAT = Number(process.env.BENCH_HOSTILE_REPEAT ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const MIB = 1_048_576;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

interface Answer {
  status: number;
  bytes: number;
  text: string;
}

function request(port: number, method: string, url: string, body?: string, token?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, bytes: all.length, text: all.toString('utf8', 0, 2000) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `open` + as many `item`s (comma-separated) as fit in about a mebibyte + `close`. */
function filled(open: string, item: (i: number) => string, close: string): string {
  const parts: string[] = [];
  let size = open.length + close.length;
  for (let i = 0; size < MIB - 200; i += 1) {
    const next = item(i);
    parts.push(next);
    size += next.length + 1;
  }
  return open + parts.join(',') + close;
}

const wrongBucket = (pad: number) =>
  `{"hour_start":1,"source":2,"model":3,"input_tokens":"x","output_tokens":-1,"total_tokens":"y","project_key":4,"pad":"${'a'.repeat(pad)}"}`;

const HOSTILE: { name: string; url: string; device: boolean; body: string }[] = [
  {
    name: 'upload: hourly of {}',
    url: '/functions/svc-ingest',
    device: true,
    body: filled('{"hourly":[', () => '{}', ']}'),
  },
  {
    name: 'upload: data.hourly of {}',
    url: '/functions/svc-ingest',
    device: true,
    body: filled('{"data":{"hourly":[', () => '{}', ']}}'),
  },
  {
    name: 'upload: 500 buckets of wrong types',
    url: '/functions/svc-ingest',
    device: true,
    body: `{"hourly":[${Array.from({ length: 500 }, () => wrongBucket(1900)).join(',')}]}`,
  },
  {
    name: 'upload: unknown fields',
    url: '/functions/svc-ingest',
    device: true,
    body: filled('{', (i) => `"f${i}":0`, '}'),
  },
  {
    name: 'upload: a 1 MiB field name',
    url: '/functions/svc-ingest',
    device: true,
    body: `{"${'k'.repeat(MIB - 100)}":1}`,
  },
  {
    name: 'link-code exchange: unknown fields',
    url: '/functions/svc-link-code-exchange',
    device: false,
    body: filled('{', (i) => `"f${i}":0`, '}'),
  },
];

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** `/healthz` from one connection for `seconds`; each answer's time in milliseconds, sorted. */
async function healthLatencies(port: number, seconds: number, hostile?: () => Promise<unknown>): Promise<number[]> {
  const end = performance.now() + seconds * 1000;
  const times: number[] = [];
  let sender: NodeJS.Timeout | undefined;
  const pending: Promise<unknown>[] = [];
  if (hostile) sender = setInterval(() => pending.push(hostile()), 1000);
  while (performance.now() < end) {
    const start = performance.now();
    await request(port, 'GET', '/healthz');
    times.push(performance.now() - start);
  }
  clearInterval(sender);
  await Promise.all(pending);
  return times.sort((a, b) => a - b);
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-bench-hostile-'));
  // High upload limits for the repeated sends of phase 1: a device's rate limit would refuse most
  // of them before their bodies were read, and the point is what a body costs once it is read.
  const server = await startServer(
    benchServerEnv({ DATA_DIR: dataDir, INGEST_RATE_PER_MINUTE: '100000', INGEST_BURST: '100000' }),
  );
  try {
    const { port } = server;
    const signUp = await request(
      port,
      'POST',
      '/auth/v1/signup',
      JSON.stringify({ email: 'hostile@bench.example', password: 'correct horse battery' }),
    );
    const access = (JSON.parse(signUp.text) as { access_token: string }).access_token;
    const issued = await request(
      port,
      'POST',
      '/functions/svc-device-token-issue',
      JSON.stringify({ device_name: 'hostile', platform: 'linux' }),
      access,
    );
    const device = (JSON.parse(issued.text) as { token: string }).token;

    console.log(
      `bench:hostile — ${REPEAT} sends of each body, server CPU per body (an upper bound on event-loop time)`,
    );
    console.log('| body | size | status | answer | server CPU per body |');
    console.log('|---|---|---|---|---|');
    for (const h of HOSTILE) {
      await request(port, 'POST', h.url, h.body, h.device ? device : undefined); // warm-up
      const before = cpuSeconds(server.child.pid);
      let last: Answer | undefined;
      for (let i = 0; i < REPEAT; i += 1)
        last = await request(port, 'POST', h.url, h.body, h.device ? device : undefined);
      const perBody = ((cpuSeconds(server.child.pid) - before) / REPEAT) * 1000;
      console.log(
        `| ${h.name} | ${(h.body.length / 1024).toFixed(0)} KiB | ${last?.status} | ${last?.bytes} B | ${perBody.toFixed(1)} ms |`,
      );
    }

    const first = HOSTILE[0];
    if (first === undefined) throw new Error('no hostile body');
    const alone = await healthLatencies(port, SECONDS);
    const loaded = await healthLatencies(port, SECONDS, () => request(port, 'POST', first.url, first.body, device));
    console.log(`\n/healthz from one connection, ${SECONDS} s each`);
    console.log('| load | requests | p50 | p99 | max |');
    console.log('|---|---|---|---|---|');
    for (const [name, t] of [
      ['none', alone],
      [`one "${first.name}" a second`, loaded],
    ] as const)
      console.log(
        `| ${name} | ${t.length} | ${fmt(quantile(t, 0.5))} | ${fmt(quantile(t, 0.99))} | ${fmt(t.at(-1) ?? NaN)} |`,
      );
  } finally {
    agent.destroy();
    await stopProcess(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
