/**
 * @fileoverview `tokentally hooks install|uninstall` edits the agents' own configuration so
 * they run `tokentally hook <agent>` after a turn or session; `tokentally hook <agent> [args]`
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
import { createOutput } from '../output.js';
import { agentRoots, ownPaths } from '../paths.js';

export async function hooksCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true });
  const action = positionals[0];
  if (action !== 'install' && action !== 'uninstall') throw new UsageError('usage: tokentally hooks install|uninstall');
  const out = createOutput(ctx.stdout, ctx.stderr);
  const roots = agentRoots(ctx.env);
  const stateDir = ownPaths(ctx.env).stateDir;
  const steps: [string, () => HookEdit][] =
    action === 'install'
      ? [
          ['codex', () => installCodex(roots, hookArgv(ctx.selfCommand, 'codex'), stateDir)],
          ['claude', () => installClaude(roots, ctx.selfCommand)],
          ['gemini', () => installGemini(roots, ctx.selfCommand, stateDir)],
        ]
      : [
          ['codex', () => uninstallCodex(roots, stateDir)],
          ['claude', () => uninstallClaude(roots)],
          ['gemini', () => uninstallGemini(roots, stateDir)],
        ];
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
