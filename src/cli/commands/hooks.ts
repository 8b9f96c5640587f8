/**
 * @fileoverview `tokentally hooks install|uninstall` edits the agents' own configuration (Codex,
 * Claude Code, Gemini CLI, Qwen Code, Factory Droid, OpenCode) so they run the launcher
 * (hooks/launcher.ts) with `hook <agent>` after a turn or session; `tokentally hook <agent> [args]`
 * (hidden, called by those hooks) starts a detached `sync --quiet`, chains an original Codex
 * notify, and always exits 0 quickly so an agent is never slowed down or broken by us.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, type CliContext } from '../context.js';
import { installClaude, installGemini, uninstallClaude, uninstallGemini, hookArgv } from '../hooks/agents.js';
import { installCodex, originalNotify, parseTomlStringArray, uninstallCodex } from '../hooks/codex.js';
import { HOOK_MARKER, type HookEdit } from '../hooks/json-hooks.js';
import { isLocked } from '../lock.js';
import { createOutput, type Output } from '../output.js';
import { installLauncher } from '../hooks/launcher.js';
import {
  installDroid,
  installOpencode,
  installQwen,
  uninstallDroid,
  uninstallOpencode,
  uninstallQwen,
} from '../hooks/more-agents.js';
import { agentRoots, ownPaths } from '../paths.js';

export async function hooksCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true });
  const action = positionals[0];
  if (action !== 'install' && action !== 'uninstall') throw new UsageError('usage: tokentally hooks install|uninstall');
  const out = createOutput(ctx.stdout, ctx.stderr);
  return action === 'install' ? installHooks(ctx, out) : uninstallHooks(ctx, out);
}

/** Write the launcher, then point every agent that has a hook at it. Exit 1 if any agent failed. */
export function installHooks(ctx: CliContext, out: Output): number {
  const roots = agentRoots(ctx.env);
  const stateDir = ownPaths(ctx.env).stateDir;
  const launcher = installLauncher(ctx.env, ctx.platform, ctx.selfCommand);
  out.info(
    launcher.bin !== undefined
      ? `Hooks call ${launcher.file}, which runs the tokentally on your PATH (now ${launcher.bin}).`
      : `Hooks call ${launcher.file}. tokentally is not on your PATH, so it falls back to ${ctx.selfCommand.join(' ')}; install it with npm install -g so hooks survive a Node upgrade.`,
  );
  const self = [launcher.file];
  return runSteps(out, [
    ['codex', () => installCodex(roots, hookArgv(self, 'codex'), stateDir)],
    ['claude', () => installClaude(roots, self)],
    ['gemini', () => installGemini(roots, self, stateDir)],
    ['qwen', () => installQwen(roots, self)],
    ['droid', () => installDroid(roots, self)],
    ['opencode', () => installOpencode(roots, ctx.env, self)],
  ]);
}

function uninstallHooks(ctx: CliContext, out: Output): number {
  const roots = agentRoots(ctx.env);
  const stateDir = ownPaths(ctx.env).stateDir;
  return runSteps(out, [
    ['codex', () => uninstallCodex(roots, stateDir)],
    ['claude', () => uninstallClaude(roots)],
    ['gemini', () => uninstallGemini(roots, stateDir)],
    ['qwen', () => uninstallQwen(roots)],
    ['droid', () => uninstallDroid(roots)],
    ['opencode', () => uninstallOpencode(ctx.env)],
  ]);
}

function runSteps(out: Output, steps: [string, () => HookEdit][]): number {
  let failed = 0;
  for (const [agent, step] of steps) {
    try {
      out.info(`${agent}: ${step().message}`);
    } catch (err) {
      failed += 1;
      out.error(`${agent}: left unchanged: ${(err as Error).message}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

export async function hookCommand(argv: string[], ctx: CliContext): Promise<number> {
  const agent = argv[0] ?? '';
  const extra = argv.slice(1).filter((a) => a !== HOOK_MARKER);
  const stateDir = ownPaths(ctx.env).stateDir;
  try {
    if (!isLocked(path.join(stateDir, 'sync.lock'))) {
      const [cmd, ...args] = ctx.selfCommand;
      if (cmd !== undefined) detached(cmd, [...args, 'sync', '--quiet'], ctx);
    }
    if (agent === 'codex') {
      const original = originalNotify(stateDir);
      const argvOriginal = original !== undefined ? parseTomlStringArray(original) : [];
      const [cmd, ...args] = argvOriginal;
      if (cmd !== undefined && !argvOriginal.includes(HOOK_MARKER)) {
        detached(cmd, [...args, ...extra], ctx);
      }
    }
  } catch {
    // a hook must never fail the agent
  }
  return 0;
}

function detached(cmd: string, args: string[], ctx: CliContext): void {
  const child = spawn(cmd, args, { detached: true, stdio: 'ignore', env: { ...ctx.env } });
  child.on('error', () => undefined);
  child.unref();
}
