/**
 * Test helpers for the CLI: a temporary home with every location redirected (one per test:
 * `tempHomeEach`), fixture writers,
 * an in-process scan that returns bucket totals, and a command context with captured output.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseBucketKey } from '../../src/cli/buckets.js';
import type { CliContext } from '../../src/cli/context.js';
import { scan, type ScanResult } from '../../src/cli/engine.js';
import { allParsers } from '../../src/cli/parsers/index.js';
import { agentRoots, ownPaths, type CliEnv } from '../../src/cli/paths.js';
import { LocalState } from '../../src/cli/state.js';
import type { Counts } from '../../src/cli/usage.js';
import { runCli } from '../../src/cli/cli.js';
import { afterEach, beforeEach } from 'vitest';

export const NOW = Date.UTC(2026, 10, 2, 12, 0, 0);

export interface TestHome {
  root: string;
  env: Record<string, string>;
}

export function makeHome(): TestHome {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-cli-'));
  const env: Record<string, string> = {
    HOME: path.join(root, 'home'),
    XDG_CONFIG_HOME: path.join(root, 'config'),
    XDG_STATE_HOME: path.join(root, 'state'),
    XDG_DATA_HOME: path.join(root, 'data'),
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
    VSCODE_GLOBAL_STORAGE: path.join(root, 'vscode', 'globalStorage'),
    COPILOT_HOME: path.join(root, 'copilot'),
    GOOSE_DATA_DIR: path.join(root, 'goose'),
    CRUSH_DATA_DIR: path.join(root, 'crush'),
    TZ: 'UTC',
  };
  fs.mkdirSync(env['HOME'] as string, { recursive: true });
  return { root, env };
}

export function removeHome(h: TestHome): void {
  fs.rmSync(h.root, { recursive: true, force: true });
}

/**
 * A fresh temporary home for each test of the file or describe block it is called in (made before
 * each test, removed after it): `const h = tempHomeEach();`, its fields read inside the tests.
 */
export function tempHomeEach(): TestHome {
  const home: TestHome = { root: '', env: {} };
  beforeEach(() => {
    Object.assign(home, makeHome());
  });
  afterEach(() => removeHome(home));
  return home;
}

export function writeJsonl(file: string, rows: readonly (object | string)[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
}

export function appendJsonl(file: string, rows: readonly (object | string)[]): void {
  fs.appendFileSync(file, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
}

export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
}

export type BucketMap = Record<string, Counts>;

/** Readable bucket name: `2026-11-01T10:30|codex|gpt-5|owner/repo` (project part only if set). */
export function bucketName(key: string): string {
  const id = parseBucketKey(key);
  const base = `${new Date(id.hourStart).toISOString().slice(0, 16)}|${id.source}|${id.model}`;
  return id.project === '' ? base : `${base}|${id.project}`;
}

export function readBuckets(env: CliEnv): BucketMap {
  const state = new LocalState(ownPaths(env).stateDir);
  const out: BucketMap = {};
  for (const [k, c] of state.buckets.entries()) {
    const name = bucketName(k);
    const prev = out[name];
    out[name] =
      prev === undefined
        ? { ...c }
        : {
            input: prev.input + c.input,
            cached: prev.cached + c.cached,
            output: prev.output + c.output,
            reasoning: prev.reasoning + c.reasoning,
            total: prev.total + c.total,
          };
  }
  for (const [k, c] of Object.entries(out))
    if (c.input === 0 && c.cached === 0 && c.output === 0 && c.reasoning === 0 && c.total === 0) delete out[k];
  return out;
}

/** One incremental scan in-process, committed, like `sync --no-upload`. */
export function runScan(env: CliEnv, now = NOW): ScanResult {
  const state = new LocalState(ownPaths(env).stateDir);
  const result = scan({ roots: agentRoots(env), state, parsers: allParsers, now });
  state.commit();
  return result;
}

export function counts(input: number, cached: number, output: number, reasoning: number, total: number): Counts {
  return { input, cached, output, reasoning, total };
}

export interface Captured {
  ctx: CliContext;
  stdout: () => string;
  stderr: () => string;
}

export function makeCtx(env: CliEnv, over: Partial<CliContext> = {}): Captured {
  let out = '';
  let err = '';
  const ctx: CliContext = {
    env,
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    interactive: false,
    now: () => NOW,
    api: {
      timeoutMs: 5000,
      attempts: 4,
      baseDelayMs: 1,
      maxDelayMs: 5,
      maxRetryAfterMs: 5000,
      sleep: () => Promise.resolve(),
    },
    prompt: () => Promise.reject(new Error('no prompt in tests')),
    selfCommand: ['/usr/bin/node', '/opt/tokentally/main.js'],
    platform: 'linux',
    hostname: 'test-host',
    ...over,
  };
  return { ctx, stdout: () => out, stderr: () => err };
}

/** A stream that says it is a terminal (as Node's stdout on a pty), collecting what is written. */
export function ttySink(): { write: (t: string) => boolean; isTTY: true; columns: number } {
  return { write: () => true, isTTY: true, columns: 100 };
}

export async function run(
  env: CliEnv,
  argv: string[],
  over: Partial<CliContext> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const c = makeCtx(env, over);
  if (over.stdout !== undefined) {
    // keep the caller's stream flags (isTTY), but capture what is written
    let text = '';
    c.ctx.stdout = { ...over.stdout, write: (t: string) => (text += t) };
    const code = await runCli(argv, c.ctx);
    return { code, stdout: text, stderr: c.stderr() };
  }
  const code = await runCli(argv, c.ctx);
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}
