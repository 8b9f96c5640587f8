/**
 * The real entry point as a child process (through tsx): without a TTY it never waits for
 * input, and it honours the redirected locations.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempHomeEach } from './helpers.js';

const MAIN = path.resolve('src/cli/main.ts');

const h = tempHomeEach();

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
    fs.writeFileSync(
      file,
      `${JSON.stringify({ type: 'assistant', timestamp: '2026-11-01T10:00:00Z', requestId: 'r', message: { id: 'm', model: 'claude-x', usage: { input_tokens: 1, output_tokens: 2 } } })}\n`,
    );
    const r = cli(['sync']);
    expect(r.status, r.stderr).toBe(1); // read and queued, but not linked
    expect(r.stderr).toContain('tokentally link --server');
    expect(r.stdout).toContain('claude: 1 file read, 1 new record');
    expect(fs.existsSync(path.join(h.env['XDG_STATE_HOME'] as string, 'tokentally', 'state.json'))).toBe(true);
    expect(fs.readdirSync(h.env['HOME'] as string)).toEqual([]);
    const report = cli(['report', '--json', '--by', 'source']);
    expect((JSON.parse(report.stdout) as { totals: { total_tokens: number } }).totals.total_tokens).toBe(3);
  });

  it.each(['status', 'doctor', 'report'])(
    'ends quietly with status 0 when its reader closes the pipe (%s | head -1)',
    async (command) => {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN, command], {
        env: { PATH: process.env['PATH'], ...h.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy(); // the reader went away before the first line
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).not.toMatch(/EPIPE|Unhandled|at /);
      expect(code).toBe(0);
    },
  );
});

describe('help', () => {
  it("prints each command's own help, and the aligned overview", async () => {
    for (const command of ['link', 'sync', 'status', 'report', 'hooks', 'schedule', 'doctor']) {
      const r = await run(h.env, [command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: tokentally ${command}`));
    }
    const bare = await run(h.env, ['hooks']);
    expect(bare.stdout).toMatch(/^Usage: tokentally hooks install\|uninstall/);
    expect(bare.code).toBe(2);
    const overview = (await run(h.env, ['--help'])).stdout.split('\n').filter((l) => /^ {2}/.test(l));
    // a synopsis too long for the column (link, report) has its summary on the next line
    const columns = new Set(overview.filter((l) => !/\]$/.test(l)).map((l) => l.lastIndexOf('  ') + 2));
    expect(overview.length).toBeGreaterThan(6);
    expect(columns.size).toBe(1);
  });
});
