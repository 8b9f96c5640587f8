/**
 * @fileoverview bench:otlp — the OTLP receiver's throughput (docs/otlp.md). Starts the compiled
 * server (SQLite file, then PostgreSQL when reachable), signs up, links DEVICES devices, then
 * under autocannon for BENCH_SECONDS each (default 10, 16 connections): `/healthz` (the bare
 * ceiling), metrics exports of 100 data points (Qwen Code's token counter, delta, so every export
 * adds), and logs exports of 50 Claude Code api_request events with fresh request ids. Prints
 * requests/s, data points or records/s, p50/p99 latency and non-2xx counts.
 *
 * Targets: ≥ 50,000 data points/s on SQLite with one process, p99 ≤ 50 ms.
 *
 * BENCH_OTLP_RUNS (comma separated, of `ceiling,metrics,logs`) and BENCH_ENGINES (of
 * `sqlite,postgres`) narrow a run, e.g. to profile one of them (BENCH_NODE_ARGS).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import protobuf from 'protobufjs';
import descriptor from '../src/otlp/otlp-descriptor.json' with { type: 'json' };
import { dropPgDatabase, freshPgDatabase, pgReachable } from './lib/postgres.js';
import { benchServerEnv, startServer, stopProcess } from './lib/processes.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DEVICES = 16;
const LOG_BODIES = 4000;
const RUNS = new Set((process.env.BENCH_OTLP_RUNS ?? 'ceiling,metrics,logs').split(','));
const ENGINES = new Set((process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(','));
const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
const Metrics = root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest');
const Logs = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');

const kv = (key: string, value: string | number) => ({
  key,
  value: typeof value === 'string' ? { stringValue: value } : { intValue: value },
});

function metricsBody(now: number): Buffer {
  const points = [];
  for (let i = 0; i < 100; i++)
    points.push({
      attributes: [
        kv('type', ['input', 'output', 'cache', 'thought', 'tool'][i % 5] ?? 'input'),
        kv('model', `qwen-${i % 20}`),
      ],
      startTimeUnixNano: `${now - 60_000}000000`,
      timeUnixNano: `${now}000000`,
      asInt: 100 + i,
    });
  const body = {
    resourceMetrics: [
      {
        resource: { attributes: [kv('service.name', 'qwen-code')] },
        scopeMetrics: [
          {
            scope: { name: 'qwen-code' },
            metrics: [
              {
                name: 'qwen-code.token.usage',
                sum: { dataPoints: points, aggregationTemporality: 1, isMonotonic: true },
              },
            ],
          },
        ],
      },
    ],
  };
  return Buffer.from(Metrics.encode(Metrics.fromObject(body)).finish());
}

function logsBody(now: number, n: number): Buffer {
  const records = Array.from({ length: 50 }, (_, i) => ({
    timeUnixNano: `${now}000000`,
    // Claude Code's shape: the full name as body, the short one as `event.name`, counts as text.
    body: { stringValue: 'claude_code.api_request' },
    attributes: [
      kv('event.name', 'api_request'),
      kv('request_id', `req_${n}_${i}`),
      kv('model', 'claude-sonnet-4-5'),
      kv('input_tokens', '12'),
      kv('output_tokens', '300'),
      kv('cache_read_tokens', '40000'),
      kv('cache_creation_tokens', '800'),
    ],
  }));
  const body = {
    resourceLogs: [
      { resource: { attributes: [kv('service.name', 'claude-code')] }, scopeLogs: [{ logRecords: records }] },
    ],
  };
  return Buffer.from(Logs.encode(Logs.fromObject(body)).finish());
}

async function json(port: number, url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** The server process's CPU time so far in seconds (all its threads), from /proc; undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ ticks (100 on Linux)
  } catch {
    return undefined;
  }
}

async function run(
  name: string,
  port: number,
  pid: number | undefined,
  options: { path: string; perRequest: number; bodies?: Buffer[]; tokens?: string[] },
): Promise<void> {
  let n = 0;
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: options.bodies ? 'POST' : 'GET',
        path: options.path,
        setupRequest: (req) => {
          n += 1;
          if (!options.bodies || !options.tokens) return req;
          return {
            ...req,
            headers: {
              'content-type': 'application/x-protobuf',
              authorization: `Bearer ${options.tokens[n % options.tokens.length]}`,
            },
            body: options.bodies[n % options.bodies.length] as Buffer,
          };
        },
      },
    ],
  });
  const rps = result.requests.average;
  const cpuAfter = cpuSeconds(pid);
  // CPU time the server spent per request: on a machine shared with other work, a figure that
  // depends far less on the load than throughput does (docs/benchmarks.md).
  const cpuMs =
    cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
      ? 'n/a'
      : (((cpuAfter - cpuBefore) * 1000) / result.requests.total).toFixed(2);
  console.log(
    `| ${name} | ${Math.round(rps)} | ${Math.round(rps * options.perRequest)} | ${result.latency.p50} | ${result.latency.p99} | ${cpuMs} | ${result.non2xx} ${JSON.stringify(result.statusCodeStats)} errors ${result.errors} | ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'} |`,
  );
}

async function measure(label: string, env: NodeJS.ProcessEnv): Promise<void> {
  const server = await startServer(
    benchServerEnv({
      INGEST_RATE_PER_MINUTE: '100000000',
      INGEST_BURST: '100000000',
      RATE_LIMIT_DEVICES_PER_MINUTE: '100000',
      ...env,
    }),
  );
  try {
    const { port } = server;
    const pid = server.child.pid;
    const signUp = await json(port, '/auth/v1/signup', {
      email: 'otlp@bench.example',
      password: 'correct horse battery',
    });
    const access = signUp.access_token as string;
    const tokens: string[] = [];
    for (let i = 0; i < DEVICES; i++)
      tokens.push(
        (await json(port, '/functions/svc-device-token-issue', { device_name: `d${i}` }, access)).token as string,
      );
    const now = Date.now() - 60_000;
    console.log(`\n${label}: ${CONNECTIONS} connections, ${SECONDS} s each, ${DEVICES} devices`);
    console.log(
      '| run | requests/s | points or records/s | p50 ms | p99 ms | server CPU ms/request | non-2xx | load (1 min) |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    if (RUNS.has('ceiling')) await run('/healthz (bare ceiling)', port, pid, { path: '/healthz', perRequest: 0 });
    if (RUNS.has('metrics'))
      await run('metrics, 100 points', port, pid, {
        path: '/v1/metrics',
        perRequest: 100,
        bodies: [metricsBody(now)],
        tokens,
      });
    const logs = Array.from({ length: LOG_BODIES }, (_, i) => logsBody(now, i));
    if (RUNS.has('logs'))
      await run('logs, 50 records', port, pid, { path: '/v1/logs', perRequest: 50, bodies: logs, tokens });
  } finally {
    await stopProcess(server.child);
  }
}

if (ENGINES.has('sqlite')) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-otlp-'));
  try {
    await measure('SQLite (one process)', { DATA_DIR: dataDir });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
if (!ENGINES.has('postgres')) {
  // PostgreSQL left out on request.
} else if (await pgReachable()) {
  const name = `bench_otlp_${process.pid}`;
  const url = await freshPgDatabase(name);
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-otlp-pg-'));
  try {
    await measure('PostgreSQL (one process)', { DATABASE_URL: url, DATA_DIR: pgDir });
  } finally {
    await dropPgDatabase(name);
    fs.rmSync(pgDir, { recursive: true, force: true });
  }
} else console.log('\nPostgreSQL not reachable: its figure is left out.');
