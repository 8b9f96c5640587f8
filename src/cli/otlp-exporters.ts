/**
 * @fileoverview The agents already configured to send their usage to the linked server over OTLP
 * (docs/otlp.md, "Settings per agent"; docs/cli.md): their logs are then not read by `sync`, so
 * nothing is counted twice, and `status` and `doctor` say so. Read from the same places the
 * agents read: Claude Code's environment and `env` blocks of its settings (user, then managed,
 * which wins), Codex's `[otel]` in `config.toml`, Gemini CLI's and Qwen Code's `telemetry` settings,
 * Copilot CLI's environment. An endpoint counts when it is on the linked server's origin.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readJson } from './json-file.js';
import type { AgentRoots, CliEnv } from './paths.js';

/** An agent exporting to the linked server, and where that is set. */
export interface OtlpExporter {
  agent: 'claude' | 'codex' | 'gemini' | 'qwen' | 'copilot';
  where: string;
}

/** Claude Code's managed settings (an administrator's, above the user's), per platform. */
function managedClaudeSettings(env: CliEnv): string {
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (process.platform === 'win32')
    return path.join(env['ProgramData'] ?? 'C:\\ProgramData', 'ClaudeCode', 'managed-settings.json');
  return '/etc/claude-code/managed-settings.json';
}

const truthy = (v: unknown) => typeof v === 'string' && ['1', 'true', 'yes'].includes(v.trim().toLowerCase());

function originOf(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.trim() === '') return undefined;
  try {
    return new URL(url.trim()).origin;
  } catch {
    return undefined;
  }
}

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The agents among Claude Code, Codex, Gemini CLI, Qwen Code and Copilot CLI that export to `server`. */
export function otlpExporters(env: CliEnv, roots: AgentRoots, server: string | undefined): OtlpExporter[] {
  const target = originOf(server);
  if (target === undefined) return [];
  const here = (url: unknown) => originOf(url) === target;
  const found: OtlpExporter[] = [];

  // Claude Code: the process environment, overridden by each settings file's `env` block in turn.
  const claudeVars: Record<string, unknown> = { ...env };
  const claudeFiles: string[] = [];
  for (const file of [...roots.claudeDirs.map((d) => path.join(d, 'settings.json')), managedClaudeSettings(env)]) {
    const vars = record(record(readJson(file))['env']);
    if (Object.keys(vars).length === 0) continue;
    Object.assign(claudeVars, vars);
    claudeFiles.push(file);
  }
  const claudeEndpoint = claudeVars['OTEL_EXPORTER_OTLP_LOGS_ENDPOINT'] ?? claudeVars['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (
    truthy(claudeVars['CLAUDE_CODE_ENABLE_TELEMETRY']) &&
    String(claudeVars['OTEL_LOGS_EXPORTER'] ?? '').includes('otlp') &&
    here(claudeEndpoint)
  )
    found.push({ agent: 'claude', where: claudeFiles.length > 0 ? claudeFiles.join(', ') : 'the environment' });

  // Codex: an endpoint inside its [otel] tables (inline or not).
  const codexFile = path.join(roots.codexHome, 'config.toml');
  if (codexExportsTo(readText(codexFile), here)) found.push({ agent: 'codex', where: codexFile });

  // Gemini CLI and Qwen Code: telemetry enabled with an OTLP endpoint.
  for (const [agent, dir] of [
    ['gemini', roots.geminiDir],
    ['qwen', roots.qwenDir],
  ] as const) {
    const file = path.join(dir, 'settings.json');
    const telemetry = record(record(readJson(file))['telemetry']);
    if (telemetry['enabled'] === true && here(telemetry['otlpEndpoint'])) found.push({ agent, where: file });
  }

  // Copilot CLI: its environment only.
  const copilotEndpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] ?? env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (truthy(env['COPILOT_OTEL_ENABLED']) && here(copilotEndpoint))
    found.push({ agent: 'copilot', where: 'the environment' });
  return found;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Whether a Codex config.toml's `[otel…]` tables name an endpoint that `here` accepts (a light TOML read: headers and `endpoint = "…"`). */
export function codexExportsTo(toml: string, here: (url: string) => boolean): boolean {
  let inOtel = false;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      inOtel = header[1] === 'otel' || header[1]?.startsWith('otel.') === true;
      continue;
    }
    if (!inOtel) continue;
    for (const m of line.matchAll(/endpoint\s*=\s*"([^"]*)"|endpoint\s*=\s*'([^']*)'/g))
      if (here(m[1] ?? m[2] ?? '')) return true;
  }
  return false;
}

/** What `sync`, `status` and `doctor` say of an exporting agent. */
export function exporterLine(e: OtlpExporter): string {
  return `${e.agent}: sends its usage to this server over OTLP (${e.where}); its logs are not read, so nothing is counted twice`;
}
