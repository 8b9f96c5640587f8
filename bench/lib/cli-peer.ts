/**
 * @fileoverview bench:cli's side-by-side part: the first read of the tree's Claude Code logs by
 * tokentally (`report --refresh --json` from a fresh state as the machine's defaults read it, with
 * one worker thread, and on one thread parsing every line) and by the fastest available peer
 * (`ccusage daily --json --offline`: `ccusage` on the PATH, or the command in BENCH_PEER), runs
 * alternating, medians of wall and CPU time (GNU time) compared; and the exactness check: the
 * whole tree read on one thread and with a worker thread gives the same report as the first
 * sync, and so does a read that parses every line (`TOKENTALLY_FULL_PARSE=1`: the key scan off),
 * timed beside it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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

interface Measured {
  /** Wall time, ms. */
  ms: number;
  /** User + system CPU time of the process and its threads, ms (NaN without /usr/bin/time). */
  cpuMs: number;
  ok: boolean;
  stdout: string;
  stderr: string;
}

const TIME = '/usr/bin/time';

/**
 * Run `cmd args` and measure wall and CPU time (GNU time's user + system of the child, worker
 * threads included): on a shared machine CPU time says more about the code than wall time.
 */
function measure(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, timesFile: string): Promise<Measured> {
  const timed = fs.existsSync(TIME);
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = timed
      ? spawn(TIME, ['-f', '%U %S', '-o', timesFile, cmd, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', (e) => resolve({ ms: 0, cpuMs: NaN, ok: false, stdout, stderr: e.message }));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      let cpuMs = NaN;
      if (timed) {
        const last = fs.readFileSync(timesFile, 'utf8').trim().split('\n').at(-1) ?? '';
        const [user, sys] = last.split(' ').map(Number);
        cpuMs = ((user ?? NaN) + (sys ?? NaN)) * 1000;
      }
      resolve({ ms, cpuMs, ok: code === 0, stdout, stderr });
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
 * Prints the Claude-only first read (defaults, on one thread, every line parsed, the peer)
 * and checks that reads of the whole tree on one thread, with a worker thread and parsing every
 * line equal `firstReport` (the first sync's `report --json`). Returns false when counts differ.
 */
export async function comparePeers(
  root: string,
  env: NodeJS.ProcessEnv,
  firstReport: string,
  main: string,
): Promise<boolean> {
  // exactness: the whole tree again, on one thread and with a worker thread (whichever the
  // default read used), each into its own state
  const timesFile = path.join(root, 'times.txt');
  let exact = true;
  for (const [label, threads] of [
    ['one-thread read', '0'],
    ['read with one worker thread', '1'],
  ] as const) {
    const e = {
      ...env,
      XDG_STATE_HOME: path.join(root, `xdg-state-threads-${threads}`),
      TOKENTALLY_READ_THREADS: threads,
    };
    const r = await measure(process.execPath, [main, 'report', '--refresh', '--json'], e, timesFile);
    const same = rows(r.stdout) === rows(firstReport);
    exact &&= same;
    console.log(
      `${label}: ${(r.ms / 1000).toFixed(2)} s wall, ${(r.cpuMs / 1000).toFixed(2)} s CPU for the whole tree; report equals the first sync's: ${same ? 'ok' : 'MISMATCH'} (${load()})`,
    );
  }
  // the key scan (lines without the keys a parser needs are never parsed) is exact: every line parsed gives the same report
  const fullEnv = {
    ...env,
    XDG_STATE_HOME: path.join(root, 'xdg-state-full'),
    TOKENTALLY_READ_THREADS: '0',
    TOKENTALLY_FULL_PARSE: '1',
  };
  const full = await measure(process.execPath, [main, 'report', '--refresh', '--json'], fullEnv, timesFile);
  const scanExact = rows(full.stdout) === rows(firstReport);
  console.log(
    `one-thread read, every line parsed (key scan off): ${(full.ms / 1000).toFixed(2)} s wall, ${(full.cpuMs / 1000).toFixed(2)} s CPU for the whole tree; report equals the key-scan read's: ${scanExact ? 'ok' : 'MISMATCH'} (${load()})`,
  );

  // the Claude Code logs alone: every other agent's directory points nowhere
  const none = path.join(root, 'none');
  const claudeEnv: NodeJS.ProcessEnv = { PATH: env['PATH'], HOME: path.join(root, 'home') };
  for (const [k, v] of Object.entries(env)) if (k !== 'PATH' && k !== 'HOME' && v !== undefined) claudeEnv[k] = none;
  claudeEnv['CLAUDE_CONFIG_DIR'] = env['CLAUDE_CONFIG_DIR'];
  claudeEnv['XDG_CONFIG_HOME'] = env['XDG_CONFIG_HOME'];
  const claudeBytes = dirBytes(path.join(root, 'claude'));
  const peer = findPeer();
  const sides: { label: string; runs: Measured[]; env?: Record<string, string> }[] = [
    { label: 'tokentally report --refresh', runs: [] },
    { label: 'the same on one thread', runs: [], env: { TOKENTALLY_READ_THREADS: '0' } },
    {
      label: 'one thread, every line parsed',
      runs: [],
      env: { TOKENTALLY_READ_THREADS: '0', TOKENTALLY_FULL_PARSE: '1' },
    },
  ];
  const theirs: Measured[] = [];
  let peerError: string | undefined;
  let totals = '';
  for (let i = 0; i < RUNS; i += 1) {
    for (const [k, side] of sides.entries()) {
      const state = path.join(root, `xdg-state-claude-${i}-${k}`);
      const e: NodeJS.ProcessEnv = { ...claudeEnv, ...side.env, XDG_STATE_HOME: state };
      const r = await measure(process.execPath, [main, 'report', '--refresh', '--json'], e, timesFile);
      if (!r.ok) throw new Error(`tokentally report --refresh failed: ${r.stderr}`);
      side.runs.push(r);
      if (totals === '') totals = rows(r.stdout);
      else if (rows(r.stdout) !== totals) peerError = 'tokentally Claude reads differ between runs';
      fs.rmSync(state, { recursive: true, force: true });
    }
    if (peer !== undefined && peerError === undefined) {
      const r = await measure(
        peer,
        ['daily', '--json', '--offline'],
        { ...process.env, CLAUDE_CONFIG_DIR: path.join(root, 'claude') },
        timesFile,
      );
      if (r.ok) theirs.push(r);
      else peerError = `${peer} failed: ${r.stderr.trim().split('\n')[0] ?? ''}`;
    }
  }
  const mb = claudeBytes / 1e6;
  const secs = (ms: number): string => (ms / 1000).toFixed(2);
  const fmt = (runs: readonly Measured[]): string => {
    const wall = median(runs.map((r) => r.ms));
    const cpu = median(runs.map((r) => r.cpuMs));
    return `wall ${secs(wall)} s = ${(mb / (wall / 1000)).toFixed(0)} MB/s, CPU ${secs(cpu)} s (runs ${runs.map((r) => `${secs(r.ms)}/${secs(r.cpuMs)}`).join(', ')} s wall/CPU)`;
  };
  console.log(
    `Claude Code logs only (${mb.toFixed(0)} MB), first read, medians of ${RUNS}, runs alternating (${load()}):`,
  );
  for (const side of sides) console.log(`  ${side.label.padEnd(38)} ${fmt(side.runs)}`);
  if (peerError !== undefined) console.log(`  peer: ${peerError}`);
  else if (peer === undefined)
    console.log('  peer: not measured (no ccusage on the PATH; set BENCH_PEER to a peer command)');
  else {
    console.log(`  ${`${path.basename(peer)} daily --json --offline`.padEnd(38)} ${fmt(theirs)}`);
    const ratio = (runs: readonly Measured[], f: (r: Measured) => number): string =>
      (median(runs.map(f)) / median(theirs.map(f))).toFixed(2);
    const [def, single] = sides as [(typeof sides)[0], (typeof sides)[0]];
    console.log(
      `  ratio tokentally / peer (target <= 1.0): wall ${ratio(def.runs, (r) => r.ms)} (one thread ${ratio(single.runs, (r) => r.ms)}), CPU ${ratio(def.runs, (r) => r.cpuMs)} (one thread ${ratio(single.runs, (r) => r.cpuMs)}) (${load()})`,
    );
  }
  return exact && scanExact;
}
