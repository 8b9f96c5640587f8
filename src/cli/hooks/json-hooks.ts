/**
 * @fileoverview Shared editing of JSON settings files whose `hooks` map event names to
 * matcher groups `{matcher?, hooks: [{type: "command", command}]}` (Claude Code and Gemini CLI
 * use this shape). Our entries are recognised by the `--tokentally-hook` marker in the
 * command, so install is idempotent and uninstall removes exactly what we added. A backup of
 * the original file is written once before the first change, and restored verbatim when
 * uninstalling leaves the settings equal to it.
 */
import fs from 'node:fs';
import { isRecord, writeFileAtomic } from '../json-file.js';

export const HOOK_MARKER = '--tokentally-hook';

export interface HookEdit {
  changed: boolean;
  message: string;
}

export function shellQuote(args: readonly string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function readSettings(file: string): { text: string | undefined; value: Record<string, unknown> } {
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { text: undefined, value: {} };
  }
  if (text.trim() === '') return { text, value: {} };
  const value = JSON.parse(text) as unknown; // a broken settings file is reported, never overwritten
  if (!isRecord(value)) throw new Error(`${file} does not hold a JSON object`);
  return { text, value };
}

function commandOf(group: Record<string, unknown>): string | undefined {
  const hooks = group['hooks'];
  const first: unknown = Array.isArray(hooks) ? hooks[0] : undefined;
  return isRecord(first) && typeof first['command'] === 'string' ? first['command'] : undefined;
}

/** The commands of our hooks in a settings file (for `doctor`). */
export function ourHookCommands(file: string): string[] {
  let value: Record<string, unknown>;
  try {
    value = readSettings(file).value;
  } catch {
    return [];
  }
  const out = new Set<string>();
  const hooks = value['hooks'];
  if (isRecord(hooks))
    for (const groups of Object.values(hooks))
      if (Array.isArray(groups))
        for (const g of groups)
          if (isRecord(g) && Array.isArray(g['hooks']))
            for (const h of g['hooks'] as unknown[]) if (isOurs(h) && isRecord(h)) out.add(String(h['command']));
  return [...out];
}

/** Undo {@link shellQuote} (single quotes and plain words only, which is all it writes). */
export function shellSplit(command: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let m = re.exec(command); m !== null; m = re.exec(command))
    out.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] ?? ''));
  return out;
}

function isOurs(hook: unknown): boolean {
  return isRecord(hook) && typeof hook['command'] === 'string' && hook['command'].includes(HOOK_MARKER);
}

export function installJsonHooks(
  file: string,
  events: readonly string[],
  entry: (event: string) => Record<string, unknown>,
  extra?: (settings: Record<string, unknown>) => void,
): HookEdit {
  const { text, value } = readSettings(file);
  const hooks = isRecord(value['hooks']) ? value['hooks'] : {};
  let changed = false;
  for (const event of events) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const fresh = entry(event);
    const wanted = commandOf(fresh);
    let present = false;
    for (const g of groups) {
      if (!isRecord(g) || !Array.isArray(g['hooks'])) continue;
      for (const h of g['hooks'] as unknown[]) {
        if (!isOurs(h) || !isRecord(h)) continue;
        present = true;
        // an older install (e.g. a fixed Node path): point it at the launcher
        if (wanted !== undefined && h['command'] !== wanted) {
          h['command'] = wanted;
          changed = true;
        }
      }
    }
    if (present) continue;
    groups.push(fresh);
    hooks[event] = groups;
    changed = true;
  }
  if (!changed) return { changed: false, message: `already installed in ${file}` };
  value['hooks'] = hooks;
  extra?.(value);
  const backup = `${file}.tokentally-backup`;
  if (text !== undefined && !fs.existsSync(backup)) writeFileAtomic(backup, text, 0o600);
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, 0o600);
  return { changed: true, message: `installed ${events.join(', ')} hook(s) in ${file}` };
}

export function uninstallJsonHooks(file: string, undoExtra?: (settings: Record<string, unknown>) => void): HookEdit {
  if (!fs.existsSync(file)) return { changed: false, message: `nothing to remove (${file} does not exist)` };
  const { value } = readSettings(file);
  const hooks = value['hooks'];
  let changed = false;
  if (isRecord(hooks)) {
    for (const [event, groups] of Object.entries(hooks)) {
      if (!Array.isArray(groups)) continue;
      const kept: unknown[] = [];
      for (const g of groups) {
        if (isRecord(g) && Array.isArray(g['hooks']) && g['hooks'].some(isOurs)) {
          changed = true;
          const rest = g['hooks'].filter((h) => !isOurs(h));
          if (rest.length > 0) kept.push({ ...g, hooks: rest });
        } else kept.push(g);
      }
      if (kept.length > 0) hooks[event] = kept;
      else delete hooks[event];
    }
    if (Object.keys(hooks).length === 0) delete value['hooks'];
  }
  if (!changed) return { changed: false, message: `no tokentally hook in ${file}` };
  undoExtra?.(value);
  const backup = `${file}.tokentally-backup`;
  let out = `${JSON.stringify(value, null, 2)}\n`;
  try {
    const original = fs.readFileSync(backup, 'utf8');
    if (original.trim() !== '' && JSON.stringify(JSON.parse(original)) === JSON.stringify(value)) out = original;
    fs.unlinkSync(backup);
  } catch {
    // no usable backup: keep the cleaned settings
  }
  writeFileAtomic(file, out, 0o600);
  return { changed: true, message: `removed tokentally hooks from ${file}` };
}
