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
      ? claudeEnv.split(',').map((p) => p.trim()).filter((p) => p !== '')
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
  };
}
