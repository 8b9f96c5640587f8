/** @fileoverview Starting and stopping the processes a benchmark measures (compiled server, ceiling). */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, seen from the compiled dist/bench/lib folder. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SERVER = path.join(ROOT, 'dist/src/server.js');

export interface Started {
  child: ChildProcess;
  port: number;
}

/** Spawns `node script`, resolving with the port once stdout matches `ready` (its first group). */
export function startNode(script: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    let errors = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = ready.exec(buffer);
      if (m?.[1]) {
        child.stdout?.off('data', onData);
        child.stdout?.resume(); // keep draining production logs
        resolve({ child, port: Number(m[1]) });
      }
      if (buffer.length > 100_000) buffer = buffer.slice(-10_000);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (errors += c.toString()));
    child.on('exit', (code) => reject(new Error(`${path.basename(script)} exited with ${code}: ${errors}`)));
  });
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

/** The process's peak resident set (VmHWM), in MB. */
export function peakRssMb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 'NaN') / 1024;
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
    ...extra,
  };
}
