/** @fileoverview Runs wrk (installing Debian's package if missing) and reads its figures. */
import { execFileSync, spawnSync } from 'node:child_process';

export interface WrkResult {
  requests: number;
  non2xx: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export function ensureWrk(): void {
  if (spawnSync('which', ['wrk']).status === 0) return;
  console.log('wrk is missing; installing Debian package wrk …');
  const install = spawnSync('sh', ['-c', 'apt-get install -y wrk || (apt-get update && apt-get install -y wrk)'], {
    stdio: 'inherit',
  });
  if (install.status !== 0) throw new Error('could not install wrk (apt-get install wrk)');
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

export function runWrk(options: {
  url: string;
  script?: string;
  connections: number;
  threads?: number;
  seconds: number;
  env?: NodeJS.ProcessEnv;
}): WrkResult {
  const args = [
    `-t${options.threads ?? 1}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    '--timeout',
    '10s',
  ];
  if (options.script) args.push('-s', options.script);
  args.push(options.url);
  const out = execFileSync('wrk', args, { encoding: 'utf8', env: { ...process.env, ...options.env } });
  const latency = (pct: string): number => {
    const m = new RegExp(`^\\s+${pct}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return m?.[1] && m[2] ? toMs(m[1], m[2]) : Number.NaN;
  };
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 'NaN');
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0');
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 'NaN');
  return { requests, non2xx, requestsPerSecond: rps, p50Ms: latency('50'), p99Ms: latency('99') };
}
