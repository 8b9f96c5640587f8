/**
 * Parallel reading is exact: the same tree read on worker threads and on one thread gives
 * identical buckets (key by key, all five counts), cursors and per-agent counters, on the
 * fixture tree holding every agent (with malformed lines) and on bench:cli's generated Claude
 * Code and Codex logs, for a first read and for an incremental one after appends. The worker
 * module is bundled from source here exactly as scripts/build-cli.ts ships it. The key scan
 * (jsonl.ts: lines without the keys a parser needs are never parsed) is exact likewise: a read
 * that parses every line gives the same result.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeFile, codexFile } from '../../bench/lib/agent-logs.js';
import { scan, type ScanResult } from '../../src/cli/engine.js';
import { allParsers } from '../../src/cli/parsers/index.js';
import { agentRoots } from '../../src/cli/paths.js';
import type { ParallelOptions } from '../../src/cli/read-pool.js';
import { LocalState } from '../../src/cli/state.js';
import { unpackCounts, type Counts } from '../../src/cli/usage.js';
import { writeAgentTree } from './agent-tree.js';
import { appendJsonl, makeHome, NOW, removeHome, type TestHome } from './helpers.js';

let tmp: string;
let workerUrl: URL;
let h: TestHome;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-parallel-'));
  const out = path.join(tmp, 'worker', 'read-worker.js');
  await build({
    entryPoints: [path.resolve('src/cli/read-worker.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  workerUrl = pathToFileURL(out);
  h = makeHome();
}, 60_000);

afterAll(() => {
  removeHome(h);
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Snapshot {
  result: ScanResult;
  /** The files reported as holding malformed lines, in order. */
  malformed: string[];
  buckets: [string, number[]][];
  /** The same totals split by session (report --by session). */
  sessions: [string, number[]][];
  cursors: string;
}

const sorted = (entries: Iterable<[string, Counts]>): [string, number[]][] =>
  [...entries]
    .map(([k, c]): [string, number[]] => [k, [c.input, c.cached, c.output, c.reasoning, c.total]])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/** One scan into state directory `dir` (committed), and what it left there. */
function scanInto(dir: string, now: number, parallel: ParallelOptions): Snapshot {
  const state = new LocalState(dir);
  const malformed: string[] = [];
  const result = scan({
    roots: agentRoots(h.env),
    state,
    parsers: allParsers,
    now,
    parallel,
    onMalformed: (agent, file, lines) => malformed.push(`${agent} ${file} ${lines}`),
  });
  state.commit();
  const reread = new LocalState(dir);
  const buckets = sorted(reread.buckets.entries());
  const sessions = sorted(reread.buckets.sessionEntries());
  // every record here names its session: the sessions of a bucket add up to it exactly
  const summed = new Map<string, number[]>();
  for (const [k, c] of sessions) {
    const base = k.slice(0, k.indexOf('\u001e'));
    const acc = summed.get(base) ?? [0, 0, 0, 0, 0];
    summed.set(
      base,
      acc.map((x, i) => x + (c[i] ?? 0)),
    );
  }
  expect(buckets.filter(([, c]) => c.some((x) => x !== 0))).toEqual(
    sorted([...summed].map(([k, c]) => [k, unpackCounts(c)])).filter(([, c]) => c.some((x) => x !== 0)),
  );
  return { result, malformed, buckets, sessions, cursors: JSON.stringify(reread.cursors) };
}

function expectSame(one: Snapshot, par: Snapshot): void {
  expect(par.result.threads).toBeGreaterThan(0);
  expect(one.result.threads).toBe(0);
  expect(par.buckets).toEqual(one.buckets);
  expect(par.sessions).toEqual(one.sessions);
  expect(par.result.agents).toEqual(one.result.agents);
  expect(par.result.bytesRead).toBe(one.result.bytesRead);
  expect(par.cursors).toBe(one.cursors);
  expect(par.malformed).toEqual(one.malformed);
}

describe('parallel read', () => {
  it('equals the one-thread read on the fixtures and a generated tree, first and incremental', () => {
    writeAgentTree(h);
    // a malformed line in the fixtures' Claude transcript
    const claudeProjects = path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects');
    const fixture = fs
      .readdirSync(claudeProjects, { recursive: true, withFileTypes: true })
      .find((f) => f.isFile() && f.name.endsWith('.jsonl'));
    expect(fixture).toBeDefined();
    const fixturePath = path.join(fixture?.parentPath ?? '', fixture?.name ?? '');
    appendJsonl(fixturePath, ['{"type":"assistant","message":{"usage":']);
    // bench:cli's generated Claude Code and Codex logs (streaming duplicates, subagents, forks)
    for (let i = 0; i < 24; i += 1) claudeFile(h.root, i, 60_000 + (i % 5) * 40_000);
    for (let i = 0; i < 16; i += 1) codexFile(h.root, i, 60_000 + (i % 4) * 50_000);

    const one = path.join(tmp, 'one');
    const par = path.join(tmp, 'par');
    const shared = path.join(tmp, 'shared');
    // every batch read by the workers; and shared out as a scan does (this thread from the front)
    const workers: ParallelOptions = { threads: 2, minBytes: 0, workerUrl, callerReads: false };
    const both: ParallelOptions = { threads: 1, minBytes: 0, workerUrl };
    // (the generated dates run past NOW, so some records are also out of range)
    const first = scanInto(one, NOW, { threads: 0 });
    expect(first.result.agents['claude']?.malformed).toBeGreaterThan(0);
    expect(first.malformed).toContain(`claude ${fixturePath} 1`);
    const fromWorkers = scanInto(par, NOW, workers);
    expect(fromWorkers.result.workerReads).toBeGreaterThan(40);
    expectSame(first, fromWorkers);
    expectSame(first, scanInto(shared, NOW, both));
    // incremental: new turns appended, a file rewritten shorter (read again from the start)
    const claudeFiles = fs
      .readdirSync(path.join(h.root, 'claude', 'projects'), { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile() && f.name.endsWith('.jsonl'))
      .map((f) => path.join(f.parentPath, f.name))
      .sort();
    for (const f of claudeFiles.slice(0, 10)) {
      const lines = fs.readFileSync(f, 'utf8').split('\n');
      fs.appendFileSync(f, `${lines.slice(0, 6).join('\n')}\n`); // copies: the ledger dedupes them
    }
    const shortened = claudeFiles[12] as string;
    fs.writeFileSync(shortened, fs.readFileSync(shortened, 'utf8').split('\n').slice(0, 8).join('\n') + '\n');
    const again = scanInto(one, NOW, { threads: 0 });
    expectSame(again, scanInto(par, NOW, workers));
    expectSame(again, scanInto(shared, NOW, both));
    // and a no-change pass reads nothing, on no thread
    const idle = scanInto(par, NOW, workers);
    expect(idle.result.threads).toBe(0);
    expect(idle.result.bytesRead).toBe(0);
  }, 60_000);

  it('reads on this thread when the worker module is missing, the read is small or the workers are silent', () => {
    const fresh = path.join(tmp, 'fresh');
    const missing = scanInto(fresh, NOW, {
      threads: 2,
      minBytes: 0,
      workerUrl: pathToFileURL(path.join(tmp, 'nope.js')),
    });
    expect(missing.result.threads).toBe(0);
    const small = scanInto(path.join(tmp, 'small'), NOW, { threads: 2, minBytes: 1e12, workerUrl });
    expect(small.result.threads).toBe(0);
    expect(small.buckets).toEqual(missing.buckets);
    expect(small.buckets.length).toBeGreaterThan(0);
    // workers that never answer, left every batch: after the stall time each is read here, same result
    const silent = path.join(tmp, 'silent.js');
    fs.writeFileSync(silent, 'export {};\n');
    const stalled = scanInto(path.join(tmp, 'stalled'), NOW, {
      threads: 2,
      minBytes: 0,
      workerUrl: pathToFileURL(silent),
      stallMs: 50,
      callerReads: false,
    });
    expect(stalled.result.threads).toBe(2);
    expect(stalled.result.workerReads).toBe(0);
    expect(stalled.buckets).toEqual(missing.buckets);
    expect(stalled.cursors).toBe(missing.cursors);
  }, 60_000);

  it('is exact with the key scan: parsing every line as JSON gives the same buckets, sessions and cursors', () => {
    // the same tree (fixtures of every agent, generated Claude Code and Codex logs), read from scratch
    const scanned = scanInto(path.join(tmp, 'key-scan'), NOW, { threads: 0 });
    process.env['TOKENTALLY_FULL_PARSE'] = '1';
    let full: Snapshot;
    let fullPar: Snapshot;
    try {
      full = scanInto(path.join(tmp, 'full-parse'), NOW, { threads: 0 });
      fullPar = scanInto(path.join(tmp, 'full-parse-par'), NOW, {
        threads: 2,
        minBytes: 0,
        workerUrl,
        callerReads: false,
      });
    } finally {
      delete process.env['TOKENTALLY_FULL_PARSE'];
    }
    expect(scanned.buckets.length).toBeGreaterThan(50);
    expect(full.buckets).toEqual(scanned.buckets);
    expect(full.sessions).toEqual(scanned.sessions);
    expect(full.cursors).toBe(scanned.cursors);
    expect(full.result.agents['claude']?.records).toBe(scanned.result.agents['claude']?.records);
    expect(full.result.agents['codex']?.records).toBe(scanned.result.agents['codex']?.records);
    // the workers read the environment too
    expect(fullPar.result.workerReads).toBeGreaterThan(0);
    expect(fullPar.buckets).toEqual(scanned.buckets);
  }, 60_000);
});
