/**
 * The real entry point as a child process (through tsx): without a TTY it never waits for
 * input, and it honours the redirected locations.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHome, removeHome, type TestHome } from './helpers.js';

const MAIN = path.resolve('src/cli/main.ts');

let h: TestHome;
beforeEach(() => {
  h = makeHome();
});
afterEach(() => removeHome(h));

function cli(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { PATH: process.env['PATH'], ...h.env },
    input: '',
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('tokentally as a process', () => {
  it('fails fast instead of prompting when there is no TTY', () => {
    const r = cli(['link', '--server', 'http://127.0.0.1:9']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('tokentally link --code');
  });

  it('syncs only the redirected trees and writes only under the redirected dirs', () => {
    const file = path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects', 'p', 's.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify({ type: 'assistant', timestamp: '2026-11-01T10:00:00Z', requestId: 'r', message: { id: 'm', model: 'claude-x', usage: { input_tokens: 1, output_tokens: 2 } } })}\n`);
    const r = cli(['sync']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('claude: 1 file(s) read, 1 new record(s)');
    expect(fs.existsSync(path.join(h.env['XDG_STATE_HOME'] as string, 'tokentally', 'state.json'))).toBe(true);
    expect(fs.readdirSync(h.env['HOME'] as string)).toEqual([]);
    const report = cli(['report', '--json', '--by', 'source']);
    expect((JSON.parse(report.stdout) as { totals: { total_tokens: number } }).totals.total_tokens).toBe(3);
  });
});
