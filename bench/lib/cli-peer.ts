/**
 * @fileoverview bench:cli's side-by-side part: the first read of the tree's Claude Code logs by
 * tokentally (`report --refresh --json` from a fresh state, on worker threads and on one thread)
 * and by the fastest available peer (`ccusage daily --json --offline`: `ccusage` on the PATH, or
 * the command in BENCH_PEER), runs alternating, medians compared; and the exactness check: the
 * whole tree read on one thread gives the same report as the parallel read, and so does a read
 * that parses every line (`TOKENTALLY_FULL_PARSE=1`: the key scan off), timed beside it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type TimeRun = (args: string[], env: NodeJS.ProcessEnv) => Promise<{ ms: number; stdout: string }>;

/** Runs per figure (alternating tokentally and the peer), from BENCH_CLI_RUNS. */
const RUNS = Math.max(1, Number(process.env['BENCH_CLI_RUNS'] ?? 3));

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const f of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (f.isFile()) n += fs.statSync(path.join(f.parentPath, f.name)).size;
  return n;
}

/** The peer command: BENCH_PEER, else `ccusage` if it is on the PATH. */
function findPeer(): string | undefined {
  const explicit = process.env['BENCH_PEER'];
  if (explicit !== undefined && explicit !== '') return explicit;
  const found = spawnSync('sh', ['-c', 'command -v ccusage'], { encoding: 'utf8' });
  const p = found.stdout.trim();
  return found.status === 0 && p !== '' ? p : undefined;
}

function runPeer(cmd: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; ok: boolean; stderr: string }> {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, ['daily', '--json', '--offline'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (e) => resolve({ ms: 0, ok: false, stderr: e.message }));
    child.on('close', (code) => {
      resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, ok: code === 0, stderr });
    });
  });
}

/** The load average, printed beside each figure: on a shared machine it says what the figure measured. */
export function load(): string {
  try {
    return `load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
  } catch {
    return 'load n/a';
  }
}

/** Report rows of a `report --json` output, for comparing two reads. */
function rows(stdout: string): string {
  return JSON.stringify(JSON.parse(stdout));
}

/**
 * Prints the Claude-only first read (parallel, one thread, the peer) and checks that a one-thread
 * read of the whole tree equals `parallelReport` (the parallel read's `report --json`).
 * Returns false when the counts differ.
 */
export async function comparePeers(
  root: string,
  env: NodeJS.ProcessEnv,
  timeRun: TimeRun,
  parallelReport: string,
): Promise<boolean> {
  // exactness: the whole tree again, on one thread, into its own state
  const oneEnv = { ...env, XDG_STATE_HOME: path.join(root, 'xdg-state-one'), TOKENTALLY_READ_THREADS: '0' };
  const one = await timeRun(['report', '--refresh', '--json'], oneEnv);
  const exact = rows(one.stdout) === rows(parallelReport);
  console.log(
    `one-thread read: ${(one.ms / 1000).toFixed(2)} s for the whole tree; report equals the parallel read's: ${exact ? 'ok' : 'MISMATCH'} (${load()})`,
  );
  // the key scan (lines without the keys a parser needs are never parsed) is exact: every line parsed gives the same report
  const fullEnv = { ...env, XDG_STATE_HOME: path.join(root, 'xdg-state-full'), TOKENTALLY_FULL_PARSE: '1' };
  const full = await timeRun(['report', '--refresh', '--json'], fullEnv);
  const scanExact = rows(full.stdout) === rows(parallelReport);
  console.log(
    `every line parsed (key scan off): ${(full.ms / 1000).toFixed(2)} s for the whole tree; report equals the key-scan read's: ${scanExact ? 'ok' : 'MISMATCH'} (${load()})`,
  );

  // the Claude Code logs alone: every other agent's directory points nowhere
  const none = path.join(root, 'none');
  const claudeEnv: NodeJS.ProcessEnv = { PATH: env['PATH'], HOME: path.join(root, 'home') };
  for (const [k, v] of Object.entries(env)) if (k !== 'PATH' && k !== 'HOME' && v !== undefined) claudeEnv[k] = none;
  claudeEnv['CLAUDE_CONFIG_DIR'] = env['CLAUDE_CONFIG_DIR'];
  claudeEnv['XDG_CONFIG_HOME'] = env['XDG_CONFIG_HOME'];
  const claudeBytes = dirBytes(path.join(root, 'claude'));
  const peer = findPeer();
  const ours: number[] = [];
  const oursOne: number[] = [];
  const theirs: number[] = [];
  const oursFull: number[] = [];
  let peerError: string | undefined;
  let totals = '';
  for (let i = 0; i < RUNS; i += 1) {
    for (const [threads, into, fullParse] of [
      [undefined, ours, false],
      ['0', oursOne, false],
      [undefined, oursFull, true],
    ] as const) {
      const state = path.join(root, `xdg-state-claude-${i}-${threads ?? 'par'}-${fullParse ? 'full' : 'scan'}`);
      const e: NodeJS.ProcessEnv = { ...claudeEnv, XDG_STATE_HOME: state };
      if (threads !== undefined) e['TOKENTALLY_READ_THREADS'] = threads;
      if (fullParse) e['TOKENTALLY_FULL_PARSE'] = '1';
      const r = await timeRun(['report', '--refresh', '--json'], e);
      into.push(r.ms);
      if (totals === '') totals = rows(r.stdout);
      else if (rows(r.stdout) !== totals) peerError = 'tokentally Claude reads differ between runs';
      fs.rmSync(state, { recursive: true, force: true });
    }
    if (peer !== undefined && peerError === undefined) {
      const r = await runPeer(peer, { ...process.env, CLAUDE_CONFIG_DIR: path.join(root, 'claude') });
      if (r.ok) theirs.push(r.ms);
      else peerError = `${peer} failed: ${r.stderr.trim().split('\n')[0] ?? ''}`;
    }
  }
  const mb = claudeBytes / 1e6;
  const fmt = (ms: readonly number[]): string =>
    `${(median(ms) / 1000).toFixed(2)} s = ${(mb / (median(ms) / 1000)).toFixed(0)} MB/s (runs ${ms.map((x) => (x / 1000).toFixed(2)).join(', ')} s)`;
  console.log(
    `Claude Code logs only (${mb.toFixed(0)} MB), first read, median of ${RUNS}, runs alternating (${load()}):`,
  );
  console.log(`  tokentally report --refresh:            ${fmt(ours)}`);
  console.log(`  the same on one thread:                 ${fmt(oursOne)}`);
  console.log(`  the same, every line parsed:            ${fmt(oursFull)}`);
  if (peerError !== undefined) console.log(`  peer: ${peerError}`);
  else if (peer === undefined)
    console.log('  peer: not measured (no ccusage on the PATH; set BENCH_PEER to a peer command)');
  else {
    const ratio = median(ours) / median(theirs);
    console.log(`  ${path.basename(peer)} daily --json --offline: ${fmt(theirs)}`);
    console.log(`  ratio tokentally / peer: ${ratio.toFixed(2)} (target <= 1.0)`);
  }
  return exact && scanExact;
}
