import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { checkHookCommand } from '../../src/cli/hooks/launcher.js';
import { stripColour } from '../../src/cli/style.js';
import { startFakeServer, type FakeServer } from './fake-server.js';
import { run, tempHomeEach, ttySink, writeJsonl } from './helpers.js';

const h = tempHomeEach();

const launcher = (): string => path.join(h.env['XDG_DATA_HOME'] as string, 'tokentally', 'bin', 'tokentally-hook');

/** A fake `tokentally` on a PATH directory that records its arguments. */
function fakeBin(): { dir: string; log: string } {
  const dir = path.join(h.root, 'bin');
  const log = path.join(h.root, 'calls.log');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'tokentally'), `#!/bin/sh\nprintf '%s ' "$@" >> '${log}'\necho >> '${log}'\n`, {
    mode: 0o755,
  });
  return { dir, log };
}

/** Records what would be run instead of running systemctl, launchctl or schtasks. */
function recorder(): { calls: string[]; runProgram: NonNullable<CliContext['runProgram']> } {
  const calls: string[] = [];
  return { calls, runProgram: (cmd, args) => (calls.push([cmd, ...args].join(' ')), { code: 0, output: '' }) };
}

describe('hooks that survive a Node upgrade', () => {
  it('hooks call the launcher, which runs whichever tokentally is on the PATH when the hook fires', async () => {
    fs.mkdirSync(h.env['CLAUDE_CONFIG_DIR'] as string, { recursive: true });
    const { dir, log } = fakeBin();
    const env = { ...h.env, PATH: `${dir}:/usr/bin:/bin` };
    const r = await run(env, ['hooks', 'install']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`runs the tokentally on your PATH (now ${path.join(dir, 'tokentally')})`);
    const settings = JSON.parse(
      fs.readFileSync(path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'settings.json'), 'utf8'),
    ) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = settings.hooks['Stop']?.[0]?.hooks[0]?.command ?? '';
    expect(command).toBe(`${launcher()} hook claude --tokentally-hook`);
    expect(command).not.toContain('node');
    // the hook fires after "a Node upgrade": the launcher finds tokentally on the PATH
    execFileSync('/bin/sh', ['-c', command], { env: { PATH: `${dir}:/usr/bin:/bin`, HOME: h.env['HOME'] } });
    expect(fs.readFileSync(log, 'utf8')).toBe('hook claude --tokentally-hook \n');
    // moved off the PATH: the install it recorded still runs
    execFileSync('/bin/sh', ['-c', command], { env: { PATH: '/usr/bin:/bin', HOME: h.env['HOME'] } });
    expect(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    const ok = await run(env, ['doctor']);
    expect(ok.stdout).toContain('ok    hooks run tokentally: claude');
    // gone altogether: doctor says so, and the launcher still exits 0
    fs.rmSync(dir, { recursive: true });
    execFileSync('/bin/sh', ['-c', command], { env: { PATH: '/usr/bin:/bin', HOME: h.env['HOME'] } });
    const gone = await run({ ...h.env, PATH: '/usr/bin:/bin' }, ['doctor']);
    expect(gone.stdout).toContain('FAIL  claude: its hook no longer runs tokentally');
    expect(checkHookCommand(['/usr/bin/env', '/nonexistent/main.js'], h.env, 'linux').ok).toBe(false);
  });

  it('replaces an old fixed-Node hook and reports one that still has it', async () => {
    const settings = path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'settings.json');
    const script = path.join(h.root, 'main.js');
    fs.writeFileSync(script, '');
    const old = `${process.execPath} ${script} hook claude --tokentally-hook`;
    writeJsonl(settings, []);
    fs.writeFileSync(settings, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: old }] }] } }));
    const before = await run(h.env, ['doctor']);
    expect(before.stdout).toContain('claude: it calls a fixed Node binary and script');
    await run(h.env, ['hooks', 'install']);
    const text = fs.readFileSync(settings, 'utf8');
    expect(text).not.toContain(old);
    expect((JSON.parse(text) as { hooks: Record<string, unknown[]> }).hooks['Stop']).toHaveLength(1);
  });

  it('covers Qwen Code, Factory Droid and OpenCode, and removes exactly what it added', async () => {
    for (const k of ['QWEN_HOME', 'FACTORY_HOME', 'OPENCODE_DATA_DIR'])
      fs.mkdirSync(h.env[k] as string, { recursive: true });
    const r = await run(h.env, ['hooks', 'install']);
    expect(r.code, r.stderr).toBe(0);
    for (const [k, agent] of [
      ['QWEN_HOME', 'qwen'],
      ['FACTORY_HOME', 'droid'],
    ] as const) {
      const s = JSON.parse(fs.readFileSync(path.join(h.env[k] as string, 'settings.json'), 'utf8')) as {
        hooks: Record<string, { hooks: { command: string }[] }[]>;
      };
      expect(Object.keys(s.hooks).sort()).toEqual(['SessionEnd', 'Stop']);
      expect(s.hooks['Stop']?.[0]?.hooks[0]?.command).toBe(`${launcher()} hook ${agent} --tokentally-hook`);
    }
    const plugin = path.join(h.env['XDG_CONFIG_HOME'] as string, 'opencode', 'plugins', 'tokentally.js');
    const js = fs.readFileSync(plugin, 'utf8');
    expect(js).toContain("event?.type !== 'session.idle'");
    expect(js).toContain(`const COMMAND = ${JSON.stringify(launcher())};`);
    expect(js).toContain('const ARGS = ["hook","opencode","--tokentally-hook"];');
    expect((await run(h.env, ['hooks', 'install'])).stdout).toContain('opencode: already installed');
    await run(h.env, ['hooks', 'uninstall']);
    expect(fs.existsSync(plugin)).toBe(false);
    expect(fs.existsSync(path.join(h.env['QWEN_HOME'] as string, 'settings.json'))).toBe(true);
    expect(fs.readFileSync(path.join(h.env['QWEN_HOME'] as string, 'settings.json'), 'utf8')).toBe('{}\n');
    // a Droid with a separate hooks.json is left alone
    fs.writeFileSync(path.join(h.env['FACTORY_HOME'] as string, 'hooks.json'), '{}');
    expect((await run(h.env, ['hooks', 'install'])).stdout).toContain('droid: Droid keeps its hooks in');
  });
});

describe('schedule', () => {
  it('writes a systemd user timer into the XDG config dir and enables it through the runner', async () => {
    const rec = recorder();
    const r = await run(h.env, ['schedule', 'install', '--every', '20'], { runProgram: rec.runProgram });
    expect(r.code, r.stderr).toBe(0);
    const dir = path.join(h.env['XDG_CONFIG_HOME'] as string, 'systemd', 'user');
    const service = fs.readFileSync(path.join(dir, 'tokentally-sync.service'), 'utf8');
    const timer = fs.readFileSync(path.join(dir, 'tokentally-sync.timer'), 'utf8');
    expect(service).toContain(`ExecStart=${launcher()} sync --quiet\n`);
    expect(service).toContain('Type=oneshot');
    expect(timer).toContain('OnUnitActiveSec=20min');
    expect(timer).toContain('WantedBy=timers.target');
    expect(rec.calls).toEqual([
      'systemctl --user daemon-reload',
      'systemctl --user enable --now tokentally-sync.timer',
    ]);
    expect(r.stdout).toContain('schedule: a systemd user timer syncs every 20 minutes');
    expect(fs.statSync(launcher()).mode & 0o111).not.toBe(0);
    expect((await run(h.env, ['doctor'])).stdout).toContain('ok    a periodic sync is scheduled');
    const u = await run(h.env, ['schedule', 'uninstall'], { runProgram: rec.runProgram });
    expect(u.code).toBe(0);
    expect(fs.existsSync(path.join(dir, 'tokentally-sync.timer'))).toBe(false);
    expect(rec.calls.slice(2)).toEqual([
      'systemctl --user disable --now tokentally-sync.timer',
      'systemctl --user daemon-reload',
    ]);
    expect((await run(h.env, ['schedule', 'install', '--every', '1'])).code).toBe(2);
  });

  it('writes a launchd agent on macOS and a scheduled task on Windows; without a runner it prints the commands', async () => {
    const rec = recorder();
    expect((await run(h.env, ['schedule', 'install'], { platform: 'darwin', runProgram: rec.runProgram })).code).toBe(
      0,
    );
    const plist = fs.readFileSync(
      path.join(h.env['HOME'] as string, 'Library', 'LaunchAgents', 'dev.tokentally.sync.plist'),
      'utf8',
    );
    expect(plist).toContain('<string>dev.tokentally.sync</string>');
    expect(plist).toContain(`<string>${launcher()}</string>\n    <string>sync</string>\n    <string>--quiet</string>`);
    expect(plist).toContain('<key>StartInterval</key><integer>900</integer>');
    expect(rec.calls[1]).toMatch(/^launchctl load -w .*dev\.tokentally\.sync\.plist$/);
    const win = recorder();
    expect((await run(h.env, ['schedule', 'install'], { platform: 'win32', runProgram: win.runProgram })).code).toBe(0);
    expect(win.calls[0]).toBe(
      `schtasks /Create /F /SC MINUTE /MO 15 /TN tokentally-sync /TR "${launcher()}.cmd" sync --quiet`,
    );
    const dry = await run(h.env, ['schedule', 'install']);
    expect(dry.stdout).toContain(
      'To activate it, run:\n  systemctl --user daemon-reload\n  systemctl --user enable --now tokentally-sync.timer',
    );
  });
});

describe('link offers automatic sync', () => {
  /** Link with a fresh server (a link code is single-use). */
  async function link(
    extra: string[],
    over: Partial<CliContext> = {},
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const srv: FakeServer = await startFakeServer();
    try {
      return await run(h.env, ['link', '--server', srv.url, '--code', 'ABCD-EFGH-JKMN', ...extra], over);
    } finally {
      await srv.close();
    }
  }

  it('sets it up on a yes, skips it with --no-hooks, and names the commands otherwise', async () => {
    fs.mkdirSync(h.env['CLAUDE_CONFIG_DIR'] as string, { recursive: true });
    const hint = await link([]);
    expect(hint.stdout).toContain('To sync automatically: `tokentally hooks install`');
    expect((await link(['--no-hooks'])).stdout).not.toContain('sync automatically');
    const rec = recorder();
    const asked: string[] = [];
    const yes = await link([], {
      interactive: true,
      prompt: (q) => (asked.push(q), Promise.resolve('')),
      runProgram: rec.runProgram,
    });
    expect(yes.code, yes.stderr).toBe(0);
    expect(asked).toEqual(['Sync automatically from now on (agent hooks and a 15-minute schedule)? [Y/n] ']);
    expect(yes.stdout).toContain('claude: installed Stop, SessionEnd hook(s)');
    expect(yes.stdout).toContain('schedule: a systemd user timer syncs every 15 minutes');
    expect(rec.calls).toContain('systemctl --user enable --now tokentally-sync.timer');
    const flag = await link(['--hooks'], { runProgram: rec.runProgram });
    expect(flag.stdout).toContain('claude: already installed');
  });
});

describe('status', () => {
  it('lists only agents with logs, with totals, local and relative times and the malformed file', async () => {
    const file = path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects', 'p', 's.jsonl');
    writeJsonl(file, [
      {
        type: 'assistant',
        timestamp: '2026-11-01T10:00:00Z',
        requestId: 'r',
        message: { id: 'm', model: 'claude-opus-4-1', usage: { input_tokens: 1, output_tokens: 1 } },
      },
      'not json',
    ]);
    await run(h.env, ['sync', '--no-upload']);
    const env = { ...h.env, TZ: 'Europe/Berlin' };
    const later = { now: () => Date.UTC(2026, 10, 2, 12, 2, 0) };
    const piped = await run(env, ['status'], later);
    const lines = piped.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'Not linked (run `tokentally link`)',
      expect.stringMatching(/^Last sync: {4}2026-11-02 13:00 (CET|GMT\+1) \(2 minutes ago\)$/),
      'Last upload:  never',
      'Queued:       1 bucket',
      'Projects:     off',
    ]);
    expect(piped.stdout).toContain(
      'agent   files   read  malformed lines\nclaude      1  173 B                1\ntotal       1  173 B                1\n',
    );
    expect(piped.stdout).toMatch(/^No logs: codex, every-code, gemini, .*crush\.$/m);
    expect(piped.stdout).toContain(`claude: the last malformed line was in ${file}`);
    const tty = await run(env, ['status'], { ...later, stdout: ttySink() });
    expect(tty.stdout).not.toBe(piped.stdout);
    expect(stripColour(tty.stdout)).toBe(piped.stdout);
  });
});

describe('on a real pseudo-terminal', () => {
  it('report (by day and by session) is coloured on a pty (util-linux script) and the same text minus colour through a pipe', async () => {
    if (!fs.existsSync('/usr/bin/script')) return;
    // one bundled file, as the package ships it (starts in a fraction of tsx's time)
    const bundle = path.join(h.root, 'tokentally.mjs');
    await build({
      entryPoints: [path.resolve('src/cli/main.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      external: ['better-sqlite3'],
      logLevel: 'warning',
    });
    writeJsonl(path.join(h.env['CODEX_HOME'] as string, 'sessions', '2026', '11', '01', 'rollout-x.jsonl'), [
      { timestamp: '2026-11-01T00:00:00Z', type: 'turn_context', payload: { model: 'gpt-5' } },
      {
        timestamp: '2026-11-01T09:00:00Z',
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: {
            last_token_usage: {
              input_tokens: 1000,
              cached_input_tokens: 800,
              output_tokens: 100,
              reasoning_output_tokens: 60,
              total_tokens: 1100,
            },
          },
        },
      },
    ]);
    const env: NodeJS.ProcessEnv = { ...process.env, ...h.env, TERM: 'xterm' };
    delete env['FORCE_COLOR']; // the runner's own colour settings must not decide
    delete env['NO_COLOR'];
    const node = process.execPath;
    const piped = execFileSync(node, [bundle, 'report', '--refresh', '--tz', 'UTC'], { env, encoding: 'utf8' });
    const pty = execFileSync('/usr/bin/script', ['-qec', `'${node}' '${bundle}' report --tz UTC`, '/dev/null'], {
      env,
      encoding: 'utf8',
    });
    expect(pty).toContain('\u001b[1m');
    expect(stripColour(pty).replace(/\r\n/g, '\n')).toBe(piped);
    // and the per-session table, likewise
    const pipedSessions = execFileSync(node, [bundle, 'report', '--by', 'session', '--tz', 'UTC'], {
      env,
      encoding: 'utf8',
    });
    expect(pipedSessions).toMatch(/^session\s+agent\s+start\s+end\s+input/);
    expect(pipedSessions).toContain('rollout-x  codex  2026-11-01 09:00 UTC  09:30');
    const ptySessions = execFileSync(
      '/usr/bin/script',
      ['-qec', `'${node}' '${bundle}' report --by session --tz UTC`, '/dev/null'],
      { env, encoding: 'utf8' },
    );
    expect(ptySessions).toContain('\u001b[1m');
    expect(stripColour(ptySessions).replace(/\r\n/g, '\n')).toBe(pipedSessions);
  });
});
