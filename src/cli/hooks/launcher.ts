/**
 * @fileoverview The small launcher every agent hook calls: `<data dir>/tokentally/bin/tokentally-hook`
 * (`.cmd` on Windows). It runs the `tokentally` found on the PATH at the time the hook fires, else
 * the one found when the hooks were installed, else the Node and script that installed them; if
 * none is left it exits 0 quietly. So a Node upgrade or a moved install never leaves an agent
 * calling a Node binary that is gone (hooks used to hard-code `/usr/bin/node /…/main.js`).
 * `doctor` asks {@link checkHookCommand} whether a hook still resolves (an old fixed-path hook that
 * still works is reported as a note with the command that updates it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../json-file.js';
import { homeDir, type CliEnv } from '../paths.js';

/** Where the launcher is written. */
export function launcherPath(env: CliEnv, platform: string): string {
  const v = env['XDG_DATA_HOME'];
  const data = v !== undefined && path.isAbsolute(v) ? v : path.join(homeDir(env), '.local', 'share');
  return path.join(data, 'tokentally', 'bin', platform === 'win32' ? 'tokentally-hook.cmd' : 'tokentally-hook');
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first `name` on `env.PATH` (with Windows' extensions), as an absolute path. */
export function findOnPath(name: string, env: CliEnv, platform: string): string | undefined {
  const dirs = (env['PATH'] ?? env['Path'] ?? '').split(platform === 'win32' ? ';' : ':').filter((d) => d !== '');
  const names = platform === 'win32' ? [`${name}.cmd`, `${name}.exe`, name] : [name];
  for (const dir of dirs) for (const n of names) if (isExecutable(path.join(dir, n))) return path.join(dir, n);
  return undefined;
}

const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function launcherScript(platform: string, bin: string | undefined, self: readonly string[]): string {
  if (platform === 'win32') {
    const lines = ['@echo off', 'rem tokentally hook launcher (written by `tokentally hooks install`)'];
    lines.push('where tokentally >nul 2>nul && (tokentally %* & exit /b 0)');
    if (bin !== undefined) lines.push(`if exist "${bin}" ("${bin}" %* & exit /b 0)`);
    const [node, script] = self;
    if (node !== undefined && script !== undefined)
      lines.push(`if exist "${node}" if exist "${script}" ("${node}" "${script}" %* & exit /b 0)`);
    lines.push('exit /b 0', '');
    return lines.join('\r\n');
  }
  const lines = [
    '#!/bin/sh',
    '# tokentally hook launcher, written by `tokentally hooks install`. It runs whichever tokentally',
    '# is installed now, so agent hooks survive a Node upgrade or a moved install. It never fails the agent.',
    'PATH="$PATH:/usr/local/bin:/opt/homebrew/bin:$HOME/.local/bin:$HOME/.npm-global/bin"',
    'if command -v tokentally >/dev/null 2>&1; then exec tokentally "$@"; fi',
  ];
  if (bin !== undefined) lines.push(`[ -x ${sq(bin)} ] && exec ${sq(bin)} "$@"`);
  const [node, script] = self;
  if (node !== undefined && script !== undefined)
    lines.push(`[ -x ${sq(node)} ] && [ -f ${sq(script)} ] && exec ${sq(node)} ${sq(script)} "$@"`);
  lines.push('exit 0', '');
  return lines.join('\n');
}

export interface Launcher {
  file: string;
  /** The `tokentally` found on the PATH when installing, if any. */
  bin: string | undefined;
}

/** Write (or refresh) the launcher; returns where it is and which tokentally it found. */
export function installLauncher(env: CliEnv, platform: string, self: readonly string[]): Launcher {
  const file = launcherPath(env, platform);
  const bin = findOnPath('tokentally', env, platform);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, launcherScript(platform, bin, self), 0o755);
  fs.chmodSync(file, 0o755);
  return { file, bin };
}

/** The recorded fallbacks in a launcher script (absolute paths it would try). */
function launcherTargets(text: string): string[][] {
  const out: string[][] = [];
  for (const line of text.split(/\r?\n/)) {
    const quoted = [...line.matchAll(/'((?:[^']|'\\'')*)'|"([^"]+)"/g)].map((m) =>
      (m[1] ?? m[2] ?? '').replace(/'\\''/g, "'"),
    );
    if (/exec |\(/.test(line) && quoted.length > 0) out.push([...new Set(quoted)]);
  }
  return out;
}

/**
 * Whether a hook's program still runs tokentally: `undefined` when it does, else what is wrong.
 * `argv0` is the program the agent runs (our launcher, or an old hook's Node binary).
 */
export function checkHookCommand(
  argv: readonly string[],
  env: CliEnv,
  platform: string,
): { ok: boolean; problem?: string } {
  const [program, script] = argv;
  if (program === undefined) return { ok: false, problem: 'the hook has no command' };
  if (!fs.existsSync(program)) return { ok: false, problem: `${program} no longer exists` };
  if (path.basename(program).startsWith('tokentally-hook')) {
    if (findOnPath('tokentally', env, platform) !== undefined) return { ok: true };
    const text = fs.readFileSync(program, 'utf8');
    if (launcherTargets(text).some((files) => files.every((f) => fs.existsSync(f)))) return { ok: true };
    return { ok: false, problem: 'tokentally is not on the PATH and the install the launcher recorded is gone' };
  }
  if (script !== undefined && script.endsWith('.js') && !fs.existsSync(script))
    return { ok: false, problem: `${script} no longer exists` };
  return {
    ok: true,
    problem: 'it calls a fixed Node binary and script, which a Node upgrade or a moved install breaks',
  };
}
