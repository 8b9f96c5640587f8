/**
 * @fileoverview Codex `notify` hook in `$CODEX_HOME/config.toml`. Codex runs one notify
 * program, so an existing `notify` is saved (in our state dir) and chained: our hook runs it
 * with the same arguments. Only the top-level `notify = [...]` assignment is touched; the rest
 * of the TOML file is kept byte for byte. Uninstall puts the original assignment back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isRecord, readJson, writeFileAtomic, writeJsonAtomic } from '../json-file.js';
import type { AgentRoots } from '../paths.js';
import { HOOK_MARKER, type HookEdit } from './json-hooks.js';

interface Found {
  start: number;
  end: number;
  value: string;
}

/** The top-level `notify = [...]` assignment (which may span lines), if any. */
export function findNotify(text: string): Found | undefined {
  const re = /^[ \t]*(\[|notify[ \t]*=)/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[1] === '[') return undefined; // first table header: no top-level notify
    const valueStart = m.index + m[0].length;
    let i = valueStart;
    while (text[i] === ' ' || text[i] === '\t') i += 1;
    if (text[i] !== '[') return undefined;
    let depth = 0;
    for (; i < text.length; i += 1) {
      const ch = text[i];
      if (ch === '"' || ch === "'") {
        const q = ch;
        for (i += 1; i < text.length && text[i] !== q; i += 1) if (q === '"' && text[i] === '\\') i += 1;
      } else if (ch === '#') {
        while (i < text.length && text[i] !== '\n') i += 1;
      } else if (ch === '[') depth += 1;
      else if (ch === ']') {
        depth -= 1;
        if (depth === 0) {
          const value = text.slice(valueStart, i + 1).trim();
          let end = i + 1;
          while (end < text.length && text[end] !== '\n') end += 1;
          return { start: m.index, end, value };
        }
      }
    }
    return undefined;
  }
  return undefined;
}

/** The strings of a TOML array of strings (basic or literal). */
export function parseTomlStringArray(value: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'/g;
  for (let m = re.exec(value); m !== null; m = re.exec(value)) {
    if (m[1] !== undefined) {
      try {
        out.push(JSON.parse(`"${m[1]}"`) as string);
      } catch {
        out.push(m[1]);
      }
    } else out.push(m[2] ?? '');
  }
  return out;
}

function configFile(roots: AgentRoots): string {
  return path.join(roots.codexHome, 'config.toml');
}

function originalFile(stateDir: string): string {
  return path.join(stateDir, 'codex-notify-original.json');
}

export function installCodex(roots: AgentRoots, hookArgs: readonly string[], stateDir: string): HookEdit {
  if (!fs.existsSync(roots.codexHome))
    return { changed: false, message: `Codex not found (${roots.codexHome}); skipped` };
  const file = configFile(roots);
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const found = findNotify(text);
  const line = `notify = ${JSON.stringify(hookArgs)}`;
  if (found?.value.includes(HOOK_MARKER) === true) {
    if (JSON.stringify(parseTomlStringArray(found.value)) === JSON.stringify(hookArgs))
      return { changed: false, message: `already installed in ${file}` };
    // an older install (e.g. a fixed Node path): point it at the launcher, keep the saved original
    writeFileAtomic(file, text.slice(0, found.start) + line + text.slice(found.end), 0o600);
    return { changed: true, message: `updated notify in ${file}` };
  }
  writeJsonAtomic(originalFile(stateDir), { value: found?.value ?? null }, 0o600);
  const backup = `${file}.tokentally-backup`;
  if (fs.existsSync(file) && !fs.existsSync(backup)) writeFileAtomic(backup, text, 0o600);
  const next = found !== undefined ? text.slice(0, found.start) + line + text.slice(found.end) : `${line}\n${text}`;
  writeFileAtomic(file, next, 0o600);
  return {
    changed: true,
    message: `installed notify in ${file}${found !== undefined ? ' (the previous notify is chained)' : ''}`,
  };
}

export function uninstallCodex(roots: AgentRoots, stateDir: string): HookEdit {
  const file = configFile(roots);
  if (!fs.existsSync(file)) return { changed: false, message: `nothing to remove (${file} does not exist)` };
  const text = fs.readFileSync(file, 'utf8');
  const found = findNotify(text);
  if (found === undefined || !found.value.includes(HOOK_MARKER))
    return { changed: false, message: `no tokentally notify in ${file}` };
  const original = originalNotify(stateDir);
  let next: string;
  if (original !== undefined) next = text.slice(0, found.start) + `notify = ${original}` + text.slice(found.end);
  else next = text.slice(0, found.start) + text.slice(text[found.end] === '\n' ? found.end + 1 : found.end);
  writeFileAtomic(file, next, 0o600);
  try {
    fs.unlinkSync(originalFile(stateDir));
  } catch {
    // nothing saved
  }
  const backup = `${file}.tokentally-backup`;
  try {
    if (fs.readFileSync(backup, 'utf8') === next) fs.unlinkSync(backup);
  } catch {
    // no backup
  }
  return {
    changed: true,
    message: `removed tokentally notify from ${file}${original !== undefined ? ' (restored the previous notify)' : ''}`,
  };
}

/** The notify assignment value that was there before ours, if any. */
export function originalNotify(stateDir: string): string | undefined {
  const raw = readJson(originalFile(stateDir));
  return isRecord(raw) && typeof raw['value'] === 'string' ? raw['value'] : undefined;
}

/** Our notify command in Codex's config, if installed (for `doctor`). */
export function codexHookArgv(roots: AgentRoots): string[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(configFile(roots), 'utf8');
  } catch {
    return undefined;
  }
  const found = findNotify(text);
  return found?.value.includes(HOOK_MARKER) === true ? parseTomlStringArray(found.value) : undefined;
}
