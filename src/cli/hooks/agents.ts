/**
 * @fileoverview Hook installers for Claude Code (`Stop` and `SessionEnd` in settings.json) and
 * Gemini CLI (`AfterAgent` and `SessionEnd` in settings.json, hooks enabled). Each runs
 * `tokentally hook <agent> --tokentally-hook`, which starts a detached `sync --quiet`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isRecord, readJson, writeJsonAtomic } from '../json-file.js';
import type { AgentRoots } from '../paths.js';
import { installJsonHooks, shellQuote, uninstallJsonHooks, HOOK_MARKER, type HookEdit } from './json-hooks.js';

export function hookArgv(self: readonly string[], agent: string): string[] {
  return [...self, 'hook', agent, HOOK_MARKER];
}

export function claudeSettingsFile(roots: AgentRoots): string {
  return path.join(roots.claudeDirs[0] ?? '', 'settings.json');
}

export function geminiSettingsFile(roots: AgentRoots): string {
  return path.join(roots.geminiDir, 'settings.json');
}

function agentPresent(dir: string): boolean {
  return fs.existsSync(dir);
}

export function installClaude(roots: AgentRoots, self: readonly string[]): HookEdit {
  const file = claudeSettingsFile(roots);
  if (!agentPresent(path.dirname(file)))
    return { changed: false, message: `Claude Code not found (${path.dirname(file)}); skipped` };
  const command = shellQuote(hookArgv(self, 'claude'));
  return installJsonHooks(file, ['Stop', 'SessionEnd'], () => ({ hooks: [{ type: 'command', command }] }));
}

export function uninstallClaude(roots: AgentRoots): HookEdit {
  return uninstallJsonHooks(claudeSettingsFile(roots));
}

/** Our own note (in the state dir) that we turned on tools.enableHooks, so uninstall turns it off. */
function flagFile(stateDir: string): string {
  return path.join(stateDir, 'gemini-enabled-hooks.json');
}

export function installGemini(roots: AgentRoots, self: readonly string[], stateDir: string): HookEdit {
  const file = geminiSettingsFile(roots);
  if (!agentPresent(roots.geminiDir))
    return { changed: false, message: `Gemini CLI not found (${roots.geminiDir}); skipped` };
  const command = shellQuote(hookArgv(self, 'gemini'));
  return installJsonHooks(
    file,
    ['AfterAgent', 'SessionEnd'],
    () => ({ matcher: '*', hooks: [{ name: 'tokentally', type: 'command', command }] }),
    (settings) => {
      // Gemini CLI ≥ 0.26 reads hooksConfig.enabled, older releases tools.enableHooks. Turn on
      // whichever is unset (never override an explicit false) and remember what we set.
      const set: string[] = [];
      for (const [section, key] of [
        ['hooksConfig', 'enabled'],
        ['tools', 'enableHooks'],
      ] as const) {
        const obj = isRecord(settings[section]) ? settings[section] : {};
        if (obj[key] === undefined) {
          obj[key] = true;
          settings[section] = obj;
          set.push(`${section}.${key}`);
        }
      }
      if (set.length > 0) writeJsonAtomic(flagFile(stateDir), { set }, 0o600);
    },
  );
}

export function uninstallGemini(roots: AgentRoots, stateDir: string): HookEdit {
  return uninstallJsonHooks(geminiSettingsFile(roots), (settings) => {
    const note = readJson(flagFile(stateDir));
    if (!isRecord(note) || !Array.isArray(note['set'])) return;
    fs.unlinkSync(flagFile(stateDir));
    for (const entry of note['set']) {
      if (typeof entry !== 'string') continue;
      const [section = '', key = ''] = entry.split('.');
      const obj = settings[section];
      if (!isRecord(obj)) continue;
      delete obj[key];
      if (Object.keys(obj).length === 0) delete settings[section];
    }
  });
}
