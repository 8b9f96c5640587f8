/**
 * @fileoverview Every directory the CLI reads or writes, resolved from one environment map so
 * tests (and users) can redirect each of them. Nothing else in src/cli reads `process.env`
 * for locations.
 */
import os from 'node:os';
import path from 'node:path';

/** The environment the CLI runs in; `process.env` in production, a plain object in tests. */
export type CliEnv = Readonly<Record<string, string | undefined>>;

/** Where tokentally keeps its own files. */
export interface OwnPaths {
  configDir: string;
  configFile: string;
  stateDir: string;
}

/** Roots of each agent's logs and configuration. */
export interface AgentRoots {
  codexHome: string;
  everyCodeHome: string;
  claudeDirs: string[];
  geminiDir: string;
  opencodeDir: string;
  qwenDir: string;
  kimiDir: string;
  kimiCodeDir: string;
  piDir: string;
  openclawDir: string;
  ampDir: string;
  factoryDir: string;
  copilotDir: string;
  gooseDir: string;
  crushDir: string;
  /** VS Code(-fork) `User/globalStorage` directories (Cline, Roo Code, Kilo Code live below). */
  vscodeStorageDirs: string[];
}

/** Editors whose `User/globalStorage` may hold the VS Code agents' task folders. */
const VSCODE_EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'];

function vscodeStorageDirs(env: CliEnv, home: string): string[] {
  const override = nonEmpty(env['VSCODE_GLOBAL_STORAGE']);
  if (override !== undefined)
    return override
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
  const base =
    process.platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support')
      : process.platform === 'win32'
        ? (nonEmpty(env['APPDATA']) ?? path.join(home, 'AppData', 'Roaming'))
        : xdg(env, 'XDG_CONFIG_HOME', '.config');
  return VSCODE_EDITORS.map((e) => path.join(base, e, 'User', 'globalStorage'));
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

export function homeDir(env: CliEnv): string {
  return nonEmpty(env['HOME']) ?? nonEmpty(env['USERPROFILE']) ?? os.homedir();
}

function xdg(env: CliEnv, name: string, fallback: string): string {
  const v = nonEmpty(env[name]);
  return v !== undefined && path.isAbsolute(v) ? v : path.join(homeDir(env), fallback);
}

export function ownPaths(env: CliEnv): OwnPaths {
  const configDir = path.join(xdg(env, 'XDG_CONFIG_HOME', '.config'), 'tokentally');
  return {
    configDir,
    configFile: path.join(configDir, 'config.json'),
    stateDir: path.join(xdg(env, 'XDG_STATE_HOME', path.join('.local', 'state')), 'tokentally'),
  };
}

export function agentRoots(env: CliEnv): AgentRoots {
  const home = homeDir(env);
  const claudeEnv = nonEmpty(env['CLAUDE_CONFIG_DIR']);
  const claudeDirs =
    claudeEnv !== undefined
      ? claudeEnv
          .split(',')
          .map((p) => p.trim())
          .filter((p) => p !== '')
      : [path.join(home, '.claude'), path.join(xdg(env, 'XDG_CONFIG_HOME', '.config'), 'claude')];
  const dataHome = xdg(env, 'XDG_DATA_HOME', path.join('.local', 'share'));
  return {
    codexHome: nonEmpty(env['CODEX_HOME']) ?? path.join(home, '.codex'),
    everyCodeHome: nonEmpty(env['CODE_HOME']) ?? path.join(home, '.code'),
    claudeDirs,
    geminiDir: path.join(nonEmpty(env['GEMINI_CLI_HOME']) ?? home, '.gemini'),
    opencodeDir: nonEmpty(env['OPENCODE_DATA_DIR']) ?? path.join(dataHome, 'opencode'),
    qwenDir: nonEmpty(env['QWEN_DATA_DIR']) ?? nonEmpty(env['QWEN_HOME']) ?? path.join(home, '.qwen'),
    kimiDir: nonEmpty(env['KIMI_SHARE_DIR']) ?? nonEmpty(env['KIMI_HOME']) ?? path.join(home, '.kimi'),
    kimiCodeDir: nonEmpty(env['KIMI_CODE_HOME']) ?? path.join(home, '.kimi-code'),
    piDir: nonEmpty(env['PI_CODING_AGENT_DIR']) ?? path.join(home, '.pi', 'agent'),
    openclawDir: nonEmpty(env['OPENCLAW_STATE_DIR']) ?? path.join(home, '.openclaw'),
    ampDir: nonEmpty(env['AMP_DATA_DIR']) ?? path.join(dataHome, 'amp'),
    factoryDir: nonEmpty(env['FACTORY_HOME']) ?? path.join(home, '.factory'),
    copilotDir: nonEmpty(env['COPILOT_HOME']) ?? path.join(home, '.copilot'),
    gooseDir: nonEmpty(env['GOOSE_DATA_DIR']) ?? path.join(dataHome, 'goose'),
    crushDir: nonEmpty(env['CRUSH_DATA_DIR']) ?? path.join(dataHome, 'crush'),
    vscodeStorageDirs: vscodeStorageDirs(env, home),
  };
}
