/**
 * @fileoverview bench:startup — how long a person waits for the compiled server and the admin
 * command line (docs/benchmarks.md, "Start-up"). Each figure is a fresh process on a fresh SQLite
 * data directory, timed from spawn to the answer: the server until it says it is listening, `admin`
 * commands until they exit. Targets: the server in about a second, every admin command under one
 * second. BENCH_STARTUP_RUNS (default 7) runs of each; prints the median, min and max.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchServerEnv, ROOT, startServer, stopProcess } from './lib/processes.js';

const RUNS = Math.max(1, Number(process.env.BENCH_STARTUP_RUNS ?? 7));
const ADMIN = path.join(ROOT, 'dist/scripts/admin.js');

function summary(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return `median ${median.toFixed(0)} ms (min ${(sorted[0] ?? 0).toFixed(0)}, max ${(sorted.at(-1) ?? 0).toFixed(0)}, ${ms.length} runs)`;
}

function freshDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-startup-'));
}

async function timeServer(): Promise<number> {
  const dir = freshDir();
  try {
    const started = performance.now();
    const server = await startServer(benchServerEnv({ DATA_DIR: dir }));
    const elapsed = performance.now() - started;
    await stopProcess(server.child);
    return elapsed;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One admin command on a data directory that already holds a database (made by the first call). */
function timeAdmin(dir: string, args: string[]): number {
  // Nothing listens on port 9: sync-pricing fails fast (and exits 1) instead of reaching the network.
  const env = {
    ...process.env,
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    PRICING_SOURCE_URL: 'http://127.0.0.1:9/prices.json',
  };
  const started = performance.now();
  const r = spawnSync(process.execPath, [ADMIN, ...args], { env, encoding: 'utf8' });
  const elapsed = performance.now() - started;
  const expected = args[0] === 'sync-pricing' ? 1 : 0;
  if (r.status !== expected) throw new Error(`admin ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return elapsed;
}

async function main(): Promise<void> {
  console.log(`bench:startup — ${RUNS} runs each, ${os.cpus().length} CPUs, load ${os.loadavg()[0]?.toFixed(2)}`);
  const server: number[] = [];
  for (let i = 0; i < RUNS; i++) server.push(await timeServer());
  console.log(`server until listening (target ~1 s):   ${summary(server)}`);

  const dir = freshDir();
  try {
    timeAdmin(dir, ['create-user', 'bench@example.com', 'a long password']);
    const commands: string[][] = [
      ['help'],
      ['keys'],
      ['grant-pro', 'bench@example.com', '--days', '30'],
      ['refresh-leaderboard'],
      ['sync-pricing'],
    ];
    for (const args of commands) {
      const times = Array.from({ length: RUNS }, () => timeAdmin(dir, args));
      console.log(`admin ${args[0]?.padEnd(20)} (target < 1 s): ${summary(times)}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
