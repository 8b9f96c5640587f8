/**
 * @fileoverview bench:ingest — the compiled server under `wrk -t1 -c50` for 10 s: 200 devices
 * upload 10-bucket batches whose counts change on every request. Prints uploads/s, buckets/s,
 * p50/p99 latency and peak RSS, beside the same load on a bare node:http server (the ceiling,
 * measured right before and right after each run: the VM's speed moves within minutes), then
 * checks that every accepted upload is stored and that every read model's per-user sums equal the
 * raw buckets'. Upload patterns (BENCH_PATTERNS: `recent`, `backfill` by default, also `rewrite`;
 * bench/ingest.lua); SQLite first, then PostgreSQL if reachable (BENCH_ENGINES); each with one
 * server process and with one per core (SERVER_PROCESSES), unless BENCH_PROCESSES lists the counts
 * (e.g. `BENCH_PROCESSES=1`). BENCH_SERVER measures another build's dist/src/server.js (paired
 * runs against a baseline). BENCH_BUDGETS and BENCH_WEBHOOKS register that many budgets and
 * webhooks first (bench/lib/notifications.ts); BENCH_TEAMS puts the uploading accounts into that
 * many teams (bench/lib/bench-teams.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_TEAMS, formTeams } from './lib/bench-teams.js';
import { check } from './lib/ingest-check.js';
import { BENCH_BUDGETS, BENCH_WEBHOOKS, registerNotifications } from './lib/notifications.js';
import {
  backendsCpu,
  backendsCpuSince,
  BENCH_PG_URL,
  dropPgDatabase,
  freshPgDatabase,
  pgReachable,
} from './lib/postgres.js';
import {
  benchServerEnv,
  BENCH_SERVICE_KEY as SERVICE_KEY,
  cpuSeconds,
  writtenBytes,
  peakRssMb,
  ROOT,
  startNode,
  startServer,
  stopProcess,
} from './lib/processes.js';
import { ensureWrk, runWrk, type WrkResult } from './lib/wrk.js';

const BARE = path.join(ROOT, 'dist/bench/bare-server.js');
const LUA = path.join(ROOT, 'bench/ingest.lua');
const DEVICES = 200;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Upload patterns (bench/ingest.lua): today's half-hours, or each upload on another day of the last 310. */
const PATTERNS = (process.env.BENCH_PATTERNS ?? 'recent,backfill').split(',');
const PROCESS_COUNTS = [...new Set((process.env.BENCH_PROCESSES ?? `1,${os.cpus().length}`).split(',').map(Number))];

async function json<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function provision(base: string, tokensFile: string): Promise<void> {
  const tokens: string[] = [];
  const sessions: string[] = [];
  for (let u = 0; u < 20; u += 1) {
    const session = await json<{ user: { id: string }; access_token: string }>(`${base}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `bench${u}@example.com`, password: 'bench password' }),
    });
    for (let d = 0; d < DEVICES / 20; d += 1) {
      const issued = await json<{ token: string }>(`${base}/functions/svc-device-token-issue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVICE_KEY}` },
        body: JSON.stringify({ user_id: session.user.id, device_name: `bench-${u}-${d}` }),
      });
      tokens.push(issued.token);
    }
    sessions.push(session.access_token);
  }
  await registerNotifications(base, sessions);
  if (BENCH_TEAMS > 0) await formTeams(base, sessions);
  fs.writeFileSync(tokensFile, tokens.join('\n') + '\n');
}

/** Kilobytes per upload, one decimal. */
const kb = (bytes: number, uploads: number): string => (bytes / 1024 / uploads).toFixed(1);

function line(label: string, r: WrkResult, extra = ''): string {
  return `${label.padEnd(22)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms${extra}`;
}

/**
 * The bare node:http server under the same wrk load, kept running beside the benchmark so its
 * ceiling can be measured next to every run (half a run's time each, before and after).
 */
interface Ceiling {
  measure(): WrkResult;
}

async function startCeiling(): Promise<{ ceiling: Ceiling; stop: () => Promise<void> }> {
  const bare = await startNode(BARE, {}, /listening (\d+)/);
  const baseHour = Math.floor(Date.now() / 86_400_000) * 86_400 - 86_400;
  const tokensFile = path.join(os.tmpdir(), `tokentally-bench-bare-${process.pid}.txt`);
  fs.writeFileSync(tokensFile, Array.from({ length: DEVICES }, (_, i) => `tt_dev_bare${i}`).join('\n'));
  const load = (seconds: number) =>
    runWrk({
      url: `http://127.0.0.1:${bare.port}`,
      script: LUA,
      connections: 50,
      seconds,
      env: { TOKENS_FILE: tokensFile, BASE_HOUR: String(baseHour) },
    });
  load(2); // warm-up
  return {
    ceiling: { measure: () => load(Math.max(2, Math.round(SECONDS / 2))) },
    stop: async () => {
      await stopProcess(bare.child);
      fs.rmSync(tokensFile, { force: true });
    },
  };
}

async function benchEngine(
  name: string,
  pattern: string,
  serverEnv: NodeJS.ProcessEnv,
  ceiling: Ceiling,
): Promise<void> {
  const server = await startServer(serverEnv);
  const base = `http://127.0.0.1:${server.port}`;
  const tokensFile = path.join(os.tmpdir(), `tokentally-bench-tokens-${process.pid}.txt`);
  try {
    await provision(base, tokensFile);
    const baseHour = Math.floor(Date.now() / 86_400_000) * 86_400 - 86_400;
    const env = { TOKENS_FILE: tokensFile, BASE_HOUR: String(baseHour), PATTERN: pattern };
    runWrk({ url: base, script: LUA, connections: 50, seconds: 2, env }); // warm-up
    const before = await check(serverEnv);
    const bareBefore = ceiling.measure();
    const cpuBefore = cpuSeconds(server.child.pid);
    const writtenBefore = writtenBytes(server.child.pid);
    const dbCpuBefore = await backendsCpu(serverEnv);
    const r = runWrk({
      url: base,
      script: LUA,
      connections: 50,
      seconds: SECONDS,
      env: { ...env, COUNTER_START: '10000000' },
    });
    const cpu = cpuSeconds(server.child.pid) - cpuBefore;
    const writtenAfter = writtenBytes(server.child.pid);
    const dbCpu = backendsCpuSince(dbCpuBefore, await backendsCpu(serverEnv));
    const rss = peakRssMb(server.child.pid);
    const bareAfter = ceiling.measure();
    const bare = (bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2;
    await new Promise((resolve) => setTimeout(resolve, 1000)); // let requests wrk abandoned finish
    const after = await check(serverEnv);
    const accepted = r.requests - r.non2xx;
    const stored = after.events - before.events;
    console.log(`\n${name}, ${pattern} pattern`);
    console.log(line('  tokentally ingest', r, `  peak RSS ${rss.toFixed(0)} MB`));
    console.log(
      `  uploads/s ${(accepted / SECONDS).toFixed(0)}, buckets/s ${((accepted * 10) / SECONDS).toFixed(0)}, refused ${r.non2xx}`,
    );
    // Server CPU per upload is steadier than throughput on a shared machine: it is what a change to the server moves.
    console.log(
      `  server CPU ${((cpu / SECONDS) * 100).toFixed(0)}% of a core, ${((cpu * 1e6) / accepted).toFixed(0)} µs per upload`,
    );
    if (serverEnv.DATABASE_URL)
      console.log(
        `  database backends' CPU ${((dbCpu / SECONDS) * 100).toFixed(0)}% of a core, ${((dbCpu * 1e6) / accepted).toFixed(0)} µs per upload`,
      );
    // On SQLite the server writes the database itself: its WAL frames and their checkpoints, an
    // upload's pages twice over; the disk's share of each upload's time follows these bytes.
    if (!serverEnv.DATABASE_URL)
      console.log(
        `  server writes ${kb(writtenAfter.calls - writtenBefore.calls, accepted)} KB per upload, ${kb(writtenAfter.storage - writtenBefore.storage, accepted)} KB of it to the disk`,
      );
    console.log(
      `  bare node:http ceiling beside it: ${bareBefore.requestsPerSecond.toFixed(0)} req/s before, ${bareAfter.requestsPerSecond.toFixed(0)} after`,
    );
    console.log(`  ratio to the bare node:http ceiling: ${(r.requestsPerSecond / bare).toFixed(3)}`);
    const ok =
      stored >= accepted &&
      after.bucketsInEvents - before.bucketsInEvents >= accepted * 10 &&
      after.differing.length === 0;
    const models =
      after.differing.length === 0 ? 'every read model equals' : `${after.differing.join(', ')} DIFFER FROM`;
    const buckets = after.bucketsInEvents - before.bucketsInEvents;
    console.log(
      `  check: ${accepted} accepted uploads, ${stored} upload events stored (${buckets} buckets), ${models} the raw buckets → ${ok ? 'OK' : 'FAILED'}`,
    );
    if (!ok) process.exitCode = 1;
  } finally {
    await stopProcess(server.child);
    fs.rmSync(tokensFile, { force: true });
  }
}

async function main(): Promise<void> {
  ensureWrk();
  console.log(
    `bench:ingest — wrk -t1 -c50 -d${SECONDS}s, ${DEVICES} devices, 10 buckets per upload, ${BENCH_BUDGETS} budgets, ${BENCH_WEBHOOKS} webhooks, node ${process.version}, ${os.cpus().length} cores`,
  );
  const { ceiling, stop } = await startCeiling();
  try {
    await benchAll(ceiling);
  } finally {
    await stop();
  }
}

async function benchAll(ceiling: Ceiling): Promise<void> {
  console.log(line('bare node:http ceiling', ceiling.measure()));

  const common = benchServerEnv({
    PASSWORD_SCRYPT_COST: '32768',
    INGEST_RATE_PER_MINUTE: '100000000',
    INGEST_BURST: '100000000',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
  const label = (n: number) => (n === 1 ? 'one process' : `${n} processes`);
  if (engines.includes('sqlite')) {
    for (const pattern of PATTERNS) {
      for (const n of PROCESS_COUNTS) {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-'));
        try {
          await benchEngine(
            `SQLite (embedded, WAL), ${label(n)}`,
            pattern,
            { ...common, DATA_DIR: dataDir, DATABASE_URL: '', SERVER_PROCESSES: String(n) },
            ceiling,
          );
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }
    }
  }
  if (!engines.includes('postgres')) return;
  if (!(await pgReachable())) {
    console.log(`\nPostgreSQL at ${BENCH_PG_URL} is not reachable: skipped`);
    return;
  }
  // A database of this run's own, so benchmarks run side by side on one server do not collide.
  const database = `tokentally_bench_${process.pid}`;
  try {
    for (const pattern of PATTERNS) {
      for (const n of PROCESS_COUNTS) {
        const url = await freshPgDatabase(database);
        await benchEngine(
          `PostgreSQL (local server), ${label(n)}`,
          pattern,
          { ...common, DATA_DIR: os.tmpdir(), DATABASE_URL: url, SERVER_PROCESSES: String(n) },
          ceiling,
        );
      }
    }
  } finally {
    await dropPgDatabase(database);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
