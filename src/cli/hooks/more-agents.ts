/**
 * @fileoverview Hooks for the agents beyond Codex, Claude Code and Gemini CLI that offer one:
 * Qwen Code (`Stop` and `SessionEnd` in `~/.qwen/settings.json`, enabled by default), Factory
 * Droid (the same events in `~/.factory/settings.json`; a newer Droid that keeps a separate
 * `hooks.json` is left alone and covered by `tokentally schedule`) and OpenCode (a global plugin,
 * `<XDG_CONFIG_HOME>/opencode/plugins/tokentally.js`, that runs the hook when a session goes
 * idle). GitHub Copilot CLI loads hooks only from a repository's `.github/hooks/`, and Amp and
 * the other tools have no user-level hook: `tokentally schedule install` covers them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../json-file.js';
import type { AgentRoots, CliEnv } from '../paths.js';
import { homeDir } from '../paths.js';
import { hookArgv } from './agents.js';
import { installJsonHooks, shellQuote, uninstallJsonHooks, HOOK_MARKER, type HookEdit } from './json-hooks.js';

export function qwenSettingsFile(roots: AgentRoots): string {
  return path.join(roots.qwenDir, 'settings.json');
}

export function droidSettingsFile(roots: AgentRoots): string {
  return path.join(roots.factoryDir, 'settings.json');
}

function claudeShaped(file: string, dir: string, name: string, agent: string, self: readonly string[]): HookEdit {
  if (!fs.existsSync(dir)) return { changed: false, message: `${name} not found (${dir}); skipped` };
  const command = shellQuote(hookArgv(self, agent));
  return installJsonHooks(file, ['Stop', 'SessionEnd'], () => ({ hooks: [{ type: 'command', command }] }));
}

export function installQwen(roots: AgentRoots, self: readonly string[]): HookEdit {
  return claudeShaped(qwenSettingsFile(roots), roots.qwenDir, 'Qwen Code', 'qwen', self);
}

export function uninstallQwen(roots: AgentRoots): HookEdit {
  return uninstallJsonHooks(qwenSettingsFile(roots));
}

export function installDroid(roots: AgentRoots, self: readonly string[]): HookEdit {
  const separate = path.join(roots.factoryDir, 'hooks.json');
  if (fs.existsSync(separate))
    return {
      changed: false,
      message: `Droid keeps its hooks in ${separate}, which tokentally does not edit; skipped (\`tokentally schedule install\` covers it)`,
    };
  return claudeShaped(droidSettingsFile(roots), roots.factoryDir, 'Factory Droid', 'droid', self);
}

export function uninstallDroid(roots: AgentRoots): HookEdit {
  return uninstallJsonHooks(droidSettingsFile(roots));
}

/** OpenCode's global configuration directory. */
export function opencodeConfigDir(env: CliEnv): string {
  const v = env['XDG_CONFIG_HOME'];
  const base = v !== undefined && path.isAbsolute(v) ? v : path.join(homeDir(env), '.config');
  return path.join(base, 'opencode');
}

export function opencodePluginFile(env: CliEnv): string {
  return path.join(opencodeConfigDir(env), 'plugins', 'tokentally.js');
}

export function opencodePlugin(argv: readonly string[]): string {
  const [cmd, ...args] = argv;
  return `// tokentally: sync token counts when an OpenCode session goes idle. Written by \`tokentally hooks install\`
// (${HOOK_MARKER}); \`tokentally hooks uninstall\` removes it.
import { spawn } from 'node:child_process';

const COMMAND = ${JSON.stringify(cmd ?? '')};
const ARGS = ${JSON.stringify(args)};

export const TokentallySync = async () => ({
  event: async ({ event }) => {
    if (event?.type !== 'session.idle') return;
    try {
      spawn(COMMAND, ARGS, { detached: true, stdio: 'ignore' }).unref();
    } catch {
      // never disturb OpenCode
    }
  },
});
`;
}

export function installOpencode(roots: AgentRoots, env: CliEnv, self: readonly string[]): HookEdit {
  const config = opencodeConfigDir(env);
  if (!fs.existsSync(roots.opencodeDir) && !fs.existsSync(config))
    return { changed: false, message: `OpenCode not found (${roots.opencodeDir}); skipped` };
  const file = opencodePluginFile(env);
  const text = opencodePlugin(hookArgv(self, 'opencode'));
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text)
    return { changed: false, message: `already installed in ${file}` };
  if (fs.existsSync(file) && !fs.readFileSync(file, 'utf8').includes(HOOK_MARKER))
    return { changed: false, message: `${file} exists and is not ours; left unchanged` };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, text, 0o644);
  return { changed: true, message: `installed the session.idle plugin ${file}` };
}

export function uninstallOpencode(env: CliEnv): HookEdit {
  const file = opencodePluginFile(env);
  if (!fs.existsSync(file) || !fs.readFileSync(file, 'utf8').includes(HOOK_MARKER))
    return { changed: false, message: `no tokentally plugin at ${file}` };
  fs.unlinkSync(file);
  return { changed: true, message: `removed ${file}` };
}

/** The command our OpenCode plugin runs, if installed (for `doctor`). */
export function opencodeHookArgv(env: CliEnv): string[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(opencodePluginFile(env), 'utf8');
  } catch {
    return undefined;
  }
  const cmd = /const COMMAND = (".*");/.exec(text)?.[1];
  const args = /const ARGS = (\[.*\]);/.exec(text)?.[1];
  if (cmd === undefined || args === undefined) return undefined;
  return [JSON.parse(cmd) as string, ...(JSON.parse(args) as string[])];
}
