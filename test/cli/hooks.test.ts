import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findNotify, parseTomlStringArray } from '../../src/cli/hooks/codex.js';
import { stripColour } from '../../src/cli/style.js';
import { run, tempHomeEach, ttySink } from './helpers.js';

const h = tempHomeEach();

const launcher = (): string => path.join(h.env['XDG_DATA_HOME'] as string, 'tokentally', 'bin', 'tokentally-hook');

const CODEX_TOML = `# my codex config
model = "gpt-5-codex"
notify = [
  "python3",  # comment inside
  '/home/me/notify.py',
]

[mcp_servers.docs]
command = "docs-server"
notify = ["not-top-level"]
`;

const CLAUDE_SETTINGS = `{
    "model": "opus",
    "hooks": {
        "Stop": [ { "matcher": "", "hooks": [ { "type": "command", "command": "say done" } ] } ]
    }
}
`;

describe('hooks install/uninstall', () => {
  it('chains an existing Codex notify, is idempotent, and restores the file exactly', async () => {
    const codexToml = path.join(h.env['CODEX_HOME'] as string, 'config.toml');
    fs.mkdirSync(path.dirname(codexToml), { recursive: true });
    fs.writeFileSync(codexToml, CODEX_TOML);
    expect((await run(h.env, ['hooks', 'install'])).code).toBe(0);
    const installed = fs.readFileSync(codexToml, 'utf8');
    const found = findNotify(installed);
    expect(parseTomlStringArray(found?.value ?? '')).toEqual([launcher(), 'hook', 'codex', '--tokentally-hook']);
    expect(installed).toContain('[mcp_servers.docs]\ncommand = "docs-server"\nnotify = ["not-top-level"]\n');
    expect(fs.readFileSync(`${codexToml}.tokentally-backup`, 'utf8')).toBe(CODEX_TOML);
    expect((await run(h.env, ['hooks', 'install'])).stdout).toContain('codex: already installed');
    expect(fs.readFileSync(codexToml, 'utf8')).toBe(installed);
    expect((await run(h.env, ['hooks', 'uninstall'])).code).toBe(0);
    expect(fs.readFileSync(codexToml, 'utf8')).toBe(CODEX_TOML);
  });

  it('adds a Codex notify to a config without one and removes it again', async () => {
    const codexToml = path.join(h.env['CODEX_HOME'] as string, 'config.toml');
    fs.mkdirSync(path.dirname(codexToml), { recursive: true });
    fs.writeFileSync(codexToml, '[tui]\nnotifications = true\n');
    await run(h.env, ['hooks', 'install']);
    expect(fs.readFileSync(codexToml, 'utf8').startsWith(`notify = ["${launcher()}"`)).toBe(true);
    await run(h.env, ['hooks', 'uninstall']);
    expect(fs.readFileSync(codexToml, 'utf8')).toBe('[tui]\nnotifications = true\n');
  });

  it('adds Claude Code Stop and SessionEnd hooks next to existing ones, and removes only ours', async () => {
    const settings = path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'settings.json');
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, CLAUDE_SETTINGS);
    await run(h.env, ['hooks', 'install']);
    await run(h.env, ['hooks', 'install']);
    const s = JSON.parse(fs.readFileSync(settings, 'utf8')) as {
      model: string;
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    expect(s.model).toBe('opus');
    expect(s.hooks['Stop']?.map((g) => g.hooks[0]?.command)).toEqual([
      'say done',
      `${launcher()} hook claude --tokentally-hook`,
    ]);
    expect(s.hooks['SessionEnd']).toHaveLength(1);
    await run(h.env, ['hooks', 'uninstall']);
    expect(fs.readFileSync(settings, 'utf8')).toBe(CLAUDE_SETTINGS);
  });

  it('installs Gemini CLI hooks with hooks enabled and undoes both', async () => {
    const settings = path.join(h.env['GEMINI_CLI_HOME'] as string, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, '{"theme":"dark"}');
    await run(h.env, ['hooks', 'install']);
    const s = JSON.parse(fs.readFileSync(settings, 'utf8')) as {
      tools: { enableHooks: boolean };
      hooksConfig: { enabled: boolean };
      hooks: Record<string, unknown[]>;
    };
    expect(s.tools.enableHooks).toBe(true);
    expect(s.hooksConfig.enabled).toBe(true);
    expect(Object.keys(s.hooks).sort()).toEqual(['AfterAgent', 'SessionEnd']);
    await run(h.env, ['hooks', 'uninstall']);
    expect(fs.readFileSync(settings, 'utf8')).toBe('{"theme":"dark"}');
  });

  it('skips agents that are not installed and leaves a broken settings file untouched', async () => {
    const settings = path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'settings.json');
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, '{ broken');
    const r = await run(h.env, ['hooks', 'install']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('codex: Codex not found');
    expect(r.stderr).toContain('claude: left unchanged');
    expect(fs.readFileSync(settings, 'utf8')).toBe('{ broken');
    expect(fs.existsSync(path.join(h.env['CODEX_HOME'] as string))).toBe(false);
  });

  it('the Codex hook chains the original notify with the payload Codex passed', async () => {
    const codexToml = path.join(h.env['CODEX_HOME'] as string, 'config.toml');
    const script = path.join(h.root, 'orig-notify.sh');
    const outFile = path.join(h.root, 'orig-notify.out');
    fs.writeFileSync(script, `#!/bin/sh\nprintf '%s|' "$@" > '${outFile}'\n`, { mode: 0o755 });
    fs.mkdirSync(path.dirname(codexToml), { recursive: true });
    fs.writeFileSync(codexToml, `notify = ["/bin/sh", "${script}", "--flag"]\n`);
    await run(h.env, ['hooks', 'install']);
    const r = await run(h.env, ['hook', 'codex', '--tokentally-hook', '{"type":"agent-turn-complete"}'], {
      selfCommand: ['/nonexistent/node-binary'],
    });
    expect(r.code).toBe(0);
    for (let i = 0; i < 500 && (!fs.existsSync(outFile) || fs.readFileSync(outFile, 'utf8') === ''); i += 1)
      await new Promise((res) => setTimeout(res, 20));
    expect(fs.readFileSync(outFile, 'utf8')).toBe('--flag|{"type":"agent-turn-complete"}|');
  });

  it('the hook entry point always exits 0', async () => {
    const r = await run(h.env, ['hook', 'claude', '--tokentally-hook'], { selfCommand: ['/nonexistent/node-binary'] });
    expect(r.code).toBe(0);
  });
});

describe('doctor', () => {
  it('reports missing config and where it looked for logs', async () => {
    const r = await run(h.env, ['doctor']);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    // One problem, said once: no config means not linked.
    expect(lines[0]).toBe('1 problem needs attention:');
    expect(lines[1]).toMatch(/^FAIL {2}not linked \(no config at .*config\.json\): run `tokentally link`$/);
    expect(lines[2]).toBe('');
    expect(lines.filter((l) => l.includes('no logs'))).toEqual([
      expect.stringMatching(
        /^-- {4}no logs: codex, every-code, claude, gemini, .*, crush \(`tokentally doctor --verbose` shows where it looked\)$/,
      ),
    ]);
    const verbose = await run(h.env, ['doctor', '--verbose']);
    expect(verbose.stdout).toContain(`codex: ${path.join(h.env['CODEX_HOME'] as string, 'sessions')}`);
  });

  it('says "not linked" once when the config names no server', async () => {
    const dir = path.join(h.env['XDG_CONFIG_HOME'] ?? path.join(h.env['HOME'] as string, '.config'), 'tokentally');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'config.json'), '{}\n', { mode: 0o600 });
    const r = await run(h.env, ['doctor']);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('1 problem needs attention:');
    expect(lines[1]).toMatch(/^FAIL {2}not linked to a server \(.*config\.json names none\): run `tokentally link`$/);
    expect(r.stdout).toMatch(/^ok {4}config .*config\.json \(mode 600\)$/m);
    // On a terminal the same lines, coloured.
    const tty = await run(h.env, ['doctor'], { stdout: ttySink() });
    expect(tty.stdout).toContain('\u001b[31mFAIL');
    expect(stripColour(tty.stdout)).toBe(r.stdout);
  });
});
