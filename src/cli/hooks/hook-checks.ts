/**
 * @fileoverview `doctor`'s look at automatic sync: every hook tokentally installed (Codex notify,
 * the JSON settings hooks, the OpenCode plugin) must still run tokentally (launcher.ts decides),
 * and whether a periodic schedule is installed. Read-only.
 */
import fs from 'node:fs';
import { scheduleInstalled } from '../commands/schedule.js';
import type { CliContext } from '../context.js';
import { agentRoots } from '../paths.js';
import { claudeSettingsFile, geminiSettingsFile } from './agents.js';
import { codexHookArgv } from './codex.js';
import { ourHookCommands, shellSplit } from './json-hooks.js';
import { checkHookCommand, launcherPath } from './launcher.js';
import { droidSettingsFile, opencodeHookArgv, qwenSettingsFile } from './more-agents.js';

export interface HookCheck {
  level: 'ok' | 'note' | 'fail';
  message: string;
}

/** The installed hooks, per agent, as the argv each runs. */
export function installedHooks(ctx: CliContext): [string, string[]][] {
  const roots = agentRoots(ctx.env);
  const found: [string, string[]][] = [];
  const codex = codexHookArgv(roots);
  if (codex !== undefined) found.push(['codex', codex]);
  for (const [agent, file] of [
    ['claude', claudeSettingsFile(roots)],
    ['gemini', geminiSettingsFile(roots)],
    ['qwen', qwenSettingsFile(roots)],
    ['droid', droidSettingsFile(roots)],
  ] as const) {
    const first = ourHookCommands(file)[0];
    if (first !== undefined) found.push([agent, shellSplit(first)]);
  }
  const opencode = opencodeHookArgv(ctx.env);
  if (opencode !== undefined) found.push(['opencode', opencode]);
  return found;
}

export function checkHooks(ctx: CliContext): HookCheck[] {
  const out: HookCheck[] = [];
  const working: string[] = [];
  for (const [agent, argv] of installedHooks(ctx)) {
    const r = checkHookCommand(argv, ctx.env, ctx.platform);
    if (!r.ok)
      out.push({
        level: 'fail',
        message: `${agent}: its hook no longer runs tokentally (${r.problem}); run \`tokentally hooks install\``,
      });
    else if (r.problem !== undefined)
      out.push({ level: 'note', message: `${agent}: ${r.problem}; run \`tokentally hooks install\` to update it` });
    else working.push(agent);
  }
  if (working.length > 0) out.push({ level: 'ok', message: `hooks run tokentally: ${working.join(', ')}` });
  const scheduled = scheduleInstalled(ctx);
  if (scheduled === true) {
    const launcher = launcherPath(ctx.env, ctx.platform);
    if (fs.existsSync(launcher)) out.push({ level: 'ok', message: 'a periodic sync is scheduled' });
    else
      out.push({
        level: 'fail',
        message: `the periodic sync calls ${launcher}, which is gone; run \`tokentally schedule install\``,
      });
  }
  if (out.length === 0)
    out.push({
      level: 'note',
      message:
        'no automatic sync: run `tokentally hooks install` (and `tokentally schedule install` for agents without hooks)',
    });
  return out;
}
