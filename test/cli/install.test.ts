/**
 * The CLI as a new machine gets it: the server serves its own package at /cli/tokentally.tgz,
 * `npm install -g <server>/cli/tokentally.tgz` installs it into a fresh prefix (nothing else on
 * PATH but Node), and the installed command links with a real code, syncs a tree holding every
 * agent, and its `report` equals the server's summary in tokens and in micro-dollars.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliPackage } from '../../scripts/build-cli.js';
import { packageInfo } from '../../src/package-info.js';
import { bearer, signUp } from '../helpers/actors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { writeAgentTree } from './agent-tree.js';
import { makeHome, removeHome, type TestHome } from './helpers.js';

const VERSION = packageInfo().version;
const require = createRequire(import.meta.url);
const nodeHasSqlite = ((): boolean => {
  try {
    require('node:sqlite');
    return true;
  } catch {
    return false;
  }
})();

let tmp: string;
let t: TestApp;
let server: string;
let h: TestHome;
let prefix: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-install-'));
  await buildCliPackage(path.join(tmp, 'cli'), path.join(tmp, 'staging'));
  t = await createTestApp({ env: { CLI_PACKAGE_DIR: path.join(tmp, 'cli') } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  h = makeHome();
  prefix = path.join(tmp, 'prefix');
}, 120_000);

afterAll(async () => {
  await t.close();
  removeHome(h);
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a child without blocking this process, which is also the server the child talks to. */
function exec(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * The installed command with only Node and the install prefix on PATH; every read goes through
 * its read workers (normally only reads of 32 MB or more), so the shipped worker module is used.
 */
function tokentally(args: string[]): Promise<Ran> {
  return exec(path.join(prefix, 'bin', 'tokentally'), args, {
    ...h.env,
    PATH: [path.join(prefix, 'bin'), path.dirname(process.execPath)].join(path.delimiter),
    TOKENTALLY_PARALLEL_MIN_BYTES: '0',
    TOKENTALLY_READ_THREADS: '2',
  });
}

describe('installing the CLI from its server', () => {
  it('serves the package under both names, and refuses other versions', async () => {
    const plain = await fetch(`${server}/cli/tokentally.tgz`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('application/gzip');
    const bytes = Buffer.from(await plain.arrayBuffer());
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(bytes.length).toBeLessThan(300 * 1024);
    const versioned = await fetch(`${server}/cli/tokentally-${VERSION}.tgz`);
    expect(Buffer.from(await versioned.arrayBuffer())).toEqual(bytes);
    const other = await fetch(`${server}/cli/tokentally-0.0.1.tgz`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { detail: string }).detail).toContain(`tokentally-${VERSION}.tgz`);
  });

  it('installs with npm from the URL, links, syncs every agent, and report equals the server summary in tokens and cost', async () => {
    const npm = await exec('npm', ['install', '-g', '--no-audit', '--no-fund', `${server}/cli/tokentally.tgz`], {
      PATH: process.env['PATH'],
      HOME: h.env['HOME'],
      npm_config_prefix: prefix,
      npm_config_cache: path.join(tmp, 'npm-cache'),
      npm_config_update_notifier: 'false',
    });
    expect(npm.status, npm.stderr).toBe(0);
    const installed = path.join(prefix, 'lib', 'node_modules', 'tokentally');
    expect(fs.readdirSync(installed).sort()).toEqual(['README.md', 'bin', 'package.json']); // nothing else: no dependencies
    expect(fs.readdirSync(path.join(installed, 'bin'))).toContain('read-worker.js');
    expect((await tokentally(['--version'])).stdout.trim()).toBe(`tokentally ${VERSION}`);
    expect((await tokentally(['--help'])).stdout).toContain('Usage: tokentally <command>');

    const user = await signUp(t);
    const init = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-link-code-init',
      headers: bearer(user.accessToken),
    });
    const code = init.json<{ link_code: string }>().link_code;
    const linked = await tokentally(['link', '--server', server, '--code', code, '--device-name', 'fresh-box']);
    expect(linked.status, linked.stderr).toBe(0);
    expect(linked.stdout).toContain('"fresh-box"');

    const sources = writeAgentTree(h);
    // an OpenCode database beside the legacy JSON: read with node:sqlite where Node has it, else said so, never silently skipped
    const dbFile = path.join(h.env['OPENCODE_DATA_DIR'] as string, 'opencode.db');
    const db = new Database(dbFile);
    db.exec(
      'CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)',
    );
    const msg = {
      id: 'msg_db',
      role: 'assistant',
      modelID: 'gpt-5',
      time: { created: Date.UTC(2026, 10, 1, 15, 0) },
      tokens: { input: 700, output: 70, reasoning: 7, cache: { read: 0, write: 0 } },
    };
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run('msg_db', 'ses', 1, 1, JSON.stringify(msg));
    db.close();

    // Goose keeps SQLite too (session running totals)
    const goose = path.join(h.env['GOOSE_DATA_DIR'] as string, 'sessions', 'sessions.db');
    fs.mkdirSync(path.dirname(goose), { recursive: true });
    const gdb = new Database(goose);
    gdb.exec(
      'CREATE TABLE sessions (id TEXT PRIMARY KEY, updated_at TIMESTAMP, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, model_config_json TEXT)',
    );
    gdb
      .prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?)')
      .run('g1', '2026-11-01 23:10:00', 5_000, 400, JSON.stringify({ model_name: 'gpt-5' }));
    gdb.close();
    if (nodeHasSqlite) sources.push('goose');

    const synced = await tokentally(['sync']);
    expect(synced.status, synced.stderr).toBe(0);
    if (nodeHasSqlite) expect(synced.stderr).toBe('');
    else {
      expect(synced.stderr).toContain(`OpenCode database ${dbFile} not read: reading it needs Node ≥ 22.5`);
      expect(synced.stderr).toContain(`Goose database ${goose} not read: reading it needs Node ≥ 22.5`);
    }
    expect(synced.stdout).toMatch(/^Sent \d+ half-hour buckets: /m);
    for (const s of sources) expect(synced.stdout, s).toMatch(new RegExp(`^${s}: \\d files? read, [1-9]`, 'm'));
    const doctor = await tokentally(['doctor']);
    expect(doctor.stdout).toContain(`CLI and server versions match (${VERSION})`);
    if (!nodeHasSqlite) expect(doctor.stdout).toMatch(/FAIL {2}opencode: its database cannot be read/);
    if (!nodeHasSqlite) expect(doctor.stdout).toMatch(/FAIL {2}goose: its database cannot be read/);

    for (const tz of ['UTC', 'America/New_York']) {
      const report = await tokentally([
        'report',
        '--json',
        '--by',
        'source',
        '--since',
        '2026-10-31',
        '--until',
        '2026-11-01',
        '--tz',
        tz,
      ]);
      expect(report.status, report.stderr).toBe(0);
      const local = JSON.parse(report.stdout) as { totals: Record<string, number | string>; rows: { key: string }[] };
      expect(local.rows.map((r) => r.key).sort()).toEqual([...sources].sort());
      const summary = await t.app.inject({
        method: 'GET',
        url: `/functions/svc-usage-summary?from=2026-10-31&to=2026-11-01&tz=${encodeURIComponent(tz)}`,
        headers: bearer(user.accessToken),
      });
      expect(summary.statusCode, summary.body).toBe(200);
      const totals = summary.json<{ totals: Record<string, string> }>().totals;
      for (const field of [
        'input_tokens',
        'cached_input_tokens',
        'output_tokens',
        'reasoning_output_tokens',
        'total_tokens',
        'billable_total_tokens',
      ]) {
        expect(String(local.totals[field]), `${tz} ${field}`).toBe(totals[field]);
      }
      expect(local.totals['cost_usd'], tz).toBe(totals['total_cost_usd']);
      expect(Number(totals['total_cost_usd'])).toBeGreaterThan(0);
    }
  }, 180_000);
});
