/**
 * @fileoverview `npm run bench:cli`: generates a realistic agent-log tree (2,000 files, about
 * 1 GB across Codex, Claude Code, Gemini CLI, Qwen Code, Kimi, OpenCode, pi, OpenClaw, Amp,
 * Factory Droid, Cline, Roo Code, Kilo Code, Copilot CLI and Goose, with each agent's mix of line
 * types), then times the bundled CLI the server hands out (`tokentally sync`, process start included)
 * against a local fake server: MB/s of the first full sync (files already in the page cache; a
 * large read uses worker threads from two cores on) and wall time of a second, no-change sync.
 * Targets: ≥ 500 MB/s on a quiet machine and ≤ 0.2 s. Then (bench/lib/cli-peer.ts) checks that
 * reads on one thread and with a worker thread give the same report, and times the first read of the Claude Code logs alone beside the
 * fastest peer installed (`ccusage`, or BENCH_PEER), with the ratio (target ≤ 1.0). Also prints
 * the packed size of that CLI package (target ≤ 300 KB).
 *
 * Options (env): BENCH_CLI_MB (default 1000), BENCH_CLI_FILES (default 2000), BENCH_CLI_RUNS
 * (default 3, runs per side-by-side figure), BENCH_PEER (a peer command), BENCH_CLI_KEEP=1
 * keeps the tree.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ampFile,
  appendTurns,
  claudeFile,
  codexFile,
  copilotFile,
  droidFile,
  geminiFile,
  gooseDb,
  kimiFile,
  opencodeDb,
  piFile,
  qwenFile,
  rand,
  vscodeTask,
} from './lib/agent-logs.js';
import { comparePeers, load } from './lib/cli-peer.js';

const TARGET_MB = Number(process.env['BENCH_CLI_MB'] ?? 1000);
const FILES = Number(process.env['BENCH_CLI_FILES'] ?? 2000);
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The bundled CLI of the package served at /cli/tokentally.tgz (scripts/build-cli.ts). */
const MAIN = path.join(DIST, 'cli-package', 'bin', 'tokentally.js');
function freeBytes(dir: string): number {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
}

interface Upload {
  buckets: number;
  total: number;
  requests: number;
}

async function fakeServer(): Promise<{ url: string; stats: Upload; close: () => Promise<void> }> {
  const stats: Upload = { buckets: 0, total: 0, requests: 0 };
  const stored = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      stats.requests += 1;
      if (req.url === '/functions/svc-ingest') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          hourly: { hour_start: string; source: string; model: string; total_tokens: number }[];
        };
        for (const b of body.hourly) stored.set(`${b.hour_start}|${b.source}|${b.model}`, b.total_tokens);
        stats.buckets = stored.size;
        stats.total = [...stored.values()].reduce((a, b) => a + b, 0);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: true, inserted: body.hourly.length, skipped: 0 }));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"success":true,"updated":false}');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Run the compiled CLI as a child process (async, so the fake server in this process answers). */
function timeRun(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [MAIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`tokentally ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ ms, stdout });
    });
  });
}

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} not found: run npm run build first`);
  const free = freeBytes(os.tmpdir());
  const need = TARGET_MB * 1e6 * 2.5;
  if (free < need) {
    console.error(
      `bench:cli needs about ${(need / 1e9).toFixed(1)} GB free in ${os.tmpdir()}, only ${(free / 1e9).toFixed(1)} GB available`,
    );
    process.exitCode = 1;
    return;
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-bench-'));
  try {
    const t0 = Date.now();
    const share: [string, number, number, (root: string, i: number, bytes: number) => number][] = [
      // agent, share of files, share of bytes
      ['claude', 0.4, 0.4, claudeFile],
      ['codex', 0.3, 0.36, codexFile],
      ['gemini', 0.06, 0.06, geminiFile],
      ['qwen', 0.05, 0.04, qwenFile],
      ['kimi', 0.05, 0.03, kimiFile],
      ['pi', 0.02, 0.02, (r, i, b) => piFile(r, i, b)],
      ['openclaw', 0.015, 0.015, (r, i, b) => piFile(r, i, b, true)],
      ['amp', 0.02, 0.02, ampFile],
      ['droid', 0.02, 0.015, droidFile],
      ['vscode', 0.03, 0.02, vscodeTask],
      ['copilot', 0.0345, 0.02, copilotFile],
    ];
    let bytes = 0;
    let files = 0;
    for (const [, fileShare, byteShare, gen] of share) {
      const n = Math.round(FILES * fileShare);
      const per = (TARGET_MB * 1e6 * byteShare) / n;
      for (let i = 0; i < n; i += 1) {
        bytes += gen(root, i, per * (0.3 + rand() * 1.4));
        files += 1;
      }
    }
    bytes += opencodeDb(root, 20_000);
    bytes += gooseDb(root, 2_000);
    files += 2;
    console.log(
      `generated ${files} files, ${(bytes / 1e6).toFixed(0)} MB in ${((Date.now() - t0) / 1000).toFixed(1)} s under ${root}`,
    );

    const srv = await fakeServer();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'],
      HOME: path.join(root, 'home'),
      XDG_CONFIG_HOME: path.join(root, 'xdg-config'),
      XDG_STATE_HOME: path.join(root, 'xdg-state'),
      XDG_DATA_HOME: path.join(root, 'xdg-data'),
      CODEX_HOME: path.join(root, 'codex'),
      CODE_HOME: path.join(root, 'every-code'),
      CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
      GEMINI_CLI_HOME: path.join(root, 'gemini-home'),
      OPENCODE_DATA_DIR: path.join(root, 'opencode'),
      QWEN_HOME: path.join(root, 'qwen'),
      KIMI_HOME: path.join(root, 'kimi'),
      KIMI_CODE_HOME: path.join(root, 'kimi-code'),
      PI_CODING_AGENT_DIR: path.join(root, 'pi'),
      OPENCLAW_STATE_DIR: path.join(root, 'openclaw'),
      AMP_DATA_DIR: path.join(root, 'amp'),
      FACTORY_HOME: path.join(root, 'factory'),
      VSCODE_GLOBAL_STORAGE: path.join(root, 'vscode'),
      COPILOT_HOME: path.join(root, 'copilot'),
      GOOSE_DATA_DIR: path.join(root, 'goose'),
      CRUSH_DATA_DIR: path.join(root, 'crush'),
    };
    const cfgDir = path.join(root, 'xdg-config', 'tokentally');
    fs.mkdirSync(cfgDir, { recursive: true });
    fs.writeFileSync(path.join(cfgDir, 'config.json'), JSON.stringify({ server: srv.url, token: 'tt_dev_bench' }), {
      mode: 0o600,
    });

    // let the kernel finish writing the generated tree back, then make sure it is all cached
    spawnSync('sync');
    for (const f of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (f.isFile()) fs.readFileSync(path.join(f.parentPath, f.name));
    }
    const first = await timeRun(['sync', '--quiet'], env);
    const second = await timeRun(['sync', '--quiet'], env);
    // what a hook-triggered sync costs: one new turn in one Claude and one Codex log
    appendTurns(root);
    const third = await timeRun(['sync', '--quiet'], env);
    const reportOut = (await timeRun(['report', '--json'], env)).stdout;
    const report = JSON.parse(reportOut) as { totals: { total_tokens: number } };
    await srv.close();
    const mbps = bytes / 1e6 / (first.ms / 1000);
    console.log(
      `first sync:     ${(first.ms / 1000).toFixed(2)} s for ${(bytes / 1e6).toFixed(0)} MB = ${mbps.toFixed(0)} MB/s (target >= 500 on a quiet machine; ${load()})`,
    );
    console.log(`no-change sync: ${(second.ms / 1000).toFixed(3)} s (target <= 0.2)`);
    console.log(
      `one-turn sync:  ${(third.ms / 1000).toFixed(3)} s (a new turn in one Claude and one Codex log, uploaded)`,
    );
    const tgz = fs.readdirSync(path.join(DIST, 'cli')).find((n) => n.endsWith('.tgz'));
    const packed = tgz === undefined ? NaN : fs.statSync(path.join(DIST, 'cli', tgz)).size / 1024;
    console.log(`CLI package:    ${tgz ?? '(not built)'} ${packed.toFixed(1)} KB packed (target <= 300)`);
    console.log(
      `uploaded ${srv.stats.buckets} buckets in ${srv.stats.requests} requests; server total ${srv.stats.total} = report total ${report.totals.total_tokens}: ${srv.stats.total === report.totals.total_tokens ? 'ok' : 'MISMATCH'}`,
    );
    const exact = await comparePeers(root, env, reportOut, MAIN);
    if (mbps < 500 || second.ms > 200 || !(packed <= 300) || srv.stats.total !== report.totals.total_tokens || !exact)
      process.exitCode = 1;
  } finally {
    if (process.env['BENCH_CLI_KEEP'] !== '1') fs.rmSync(root, { recursive: true, force: true });
  }
}

await main();
