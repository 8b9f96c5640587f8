/** @fileoverview Starting and stopping the processes a benchmark measures (compiled server, ceiling). */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, seen from the compiled dist/bench/lib folder. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The measured server: this build's, or BENCH_SERVER (another build's dist/src/server.js, for paired runs). */
export const SERVER = process.env.BENCH_SERVER ?? path.join(ROOT, 'dist/src/server.js');

export interface Started {
  child: ChildProcess;
  port: number;
  /** Where the process's stdout goes (removed when it exits). */
  logFile: string;
}

/**
 * Extra node flags for the measured processes, from BENCH_NODE_ARGS (space separated): e.g.
 * `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` profiles the server under load.
 */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');

/**
 * Spawns `node script`, resolving with the port once its output matches `ready` (its first group).
 *
 * The process writes stdout to a log file, not a pipe: wrk runs synchronously in this process, so
 * nothing would drain a pipe while it measures, and once the pipe's 64 KB filled, pino's
 * synchronous writes would sleep until they could write (measured: a quarter of the server's time
 * in atomic-sleep). A file takes production logging at the cost it has on a real host.
 */
export function startNode(script: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<Started> {
  const logFile = path.join(
    os.tmpdir(),
    `tokentally-bench-${process.pid}-${path.basename(script, '.js')}-${Date.now()}.log`,
  );
  const out = fs.openSync(logFile, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', out, 'pipe'],
    });
    fs.closeSync(out);
    let errors = '';
    child.stderr?.on('data', (c: Buffer) => (errors += c.toString().slice(-10_000)));
    const poll = setInterval(() => {
      const m = ready.exec(readHead(logFile));
      if (m?.[1]) {
        clearInterval(poll);
        resolve({ child, port: Number(m[1]), logFile });
      }
    }, 20);
    child.on('exit', (code) => {
      clearInterval(poll);
      fs.rmSync(logFile, { force: true });
      reject(new Error(`${path.basename(script)} exited with ${code}: ${errors}`));
    });
  });
}

/** The first 64 KB of a file (the start-up lines). */
function readHead(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(65_536);
    return buffer.toString('utf8', 0, fs.readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/** Starts the compiled Tokentally server with `env`. */
export function startServer(env: NodeJS.ProcessEnv): Promise<Started> {
  return startNode(SERVER, env, /listening on http:\/\/127\.0\.0\.1:(\d+)/);
}

/** Sends SIGTERM and waits for the exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The process and its children (a multi-process server's workers), from /proc. */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // no such file on this kernel: the process alone
  }
  return [pid, ...children];
}

/** Peak resident set (VmHWM) in MB, summed over the process and its children. */
export function peakRssMb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  let kb = 0;
  for (const p of processTree(pid)) {
    const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
    kb += Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 'NaN');
  }
  return kb / 1024;
}

/**
 * CPU seconds (user + system, all threads) used so far by the process and its children, from /proc
 * (Linux clock ticks of 10 ms). Children must live through the measurement (a server's workers do).
 */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  let ticks = 0;
  for (const p of processTree(pid)) {
    const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

/**
 * Bytes written so far by the process and its children, from /proc/<pid>/io: `calls` passed to
 * write system calls (log lines, and on SQLite the WAL and its checkpoints), `storage` the page-cache
 * pages they dirtied, to be written to the disk.
 */
export function writtenBytes(pid: number | undefined): { calls: number; storage: number } {
  if (!pid) return { calls: Number.NaN, storage: Number.NaN };
  let calls = 0;
  let storage = 0;
  for (const p of processTree(pid)) {
    const io = fs.readFileSync(`/proc/${p}/io`, 'utf8');
    calls += Number(/^wchar: (\d+)$/m.exec(io)?.[1] ?? 'NaN');
    storage += Number(/^write_bytes: (\d+)$/m.exec(io)?.[1] ?? 'NaN');
  }
  return { calls, storage };
}

/** The secrets every benchmark gives its server (and signs its own requests with). */
export const BENCH_SERVICE_KEY = 'tt_service_bench_' + 'x'.repeat(32);
export const BENCH_JWT_SECRET = 'bench-jwt-secret-' + 'y'.repeat(32);

/** The environment of a benchmarked server: production logging, jobs off, fixed secrets. */
export function benchServerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    JOBS_ENABLED: 'false',
    SERVICE_ROLE_KEY: BENCH_SERVICE_KEY,
    JWT_SECRET: BENCH_JWT_SECRET,
    ANON_KEY: 'bench-anon',
    // BENCH_SERVER_ENV='A=1 B=2' passes settings to the measured server (e.g. INGEST_WRITER_THREAD=false).
    ...Object.fromEntries(
      (process.env.BENCH_SERVER_ENV ?? '')
        .split(/\s+/)
        .filter((kv) => kv.includes('='))
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    ),
    ...extra,
  };
}
