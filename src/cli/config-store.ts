/**
 * @fileoverview The CLI's config file (`$XDG_CONFIG_HOME/tokentally/config.json`, mode 0600):
 * the linked server, the device token, the pending link request and user choices.
 */
import fs from 'node:fs';
import { isRecord, readJson, str, writeJsonAtomic } from './json-file.js';

export interface PendingLink {
  server: string;
  code: string;
  requestId: string;
}

export interface CliConfig {
  server?: string;
  token?: string;
  deviceId?: string;
  userId?: string;
  linkedAt?: string;
  /** Opt-in project attribution (`sync --projects` turns it on, `--no-projects` off). */
  projects?: boolean;
  pendingLink?: PendingLink;
}

export function loadConfig(file: string): CliConfig {
  const raw = readJson(file);
  if (!isRecord(raw)) return {};
  const c: CliConfig = {};
  for (const k of ['server', 'token', 'deviceId', 'userId', 'linkedAt'] as const) {
    const v = str(raw[k]);
    if (v !== undefined) c[k] = v;
  }
  if (typeof raw['projects'] === 'boolean') c.projects = raw['projects'];
  const p = raw['pendingLink'];
  if (isRecord(p)) {
    const server = str(p['server']);
    const code = str(p['code']);
    const requestId = str(p['requestId']);
    if (server !== undefined && code !== undefined && requestId !== undefined)
      c.pendingLink = { server, code, requestId };
  }
  return c;
}

export function saveConfig(file: string, config: CliConfig): void {
  writeJsonAtomic(file, config, 0o600);
}

/** Octal permission bits of the config file, or undefined if it does not exist. */
export function configMode(file: string): number | undefined {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}
