/**
 * @fileoverview `tokentally status [--json]`: linked server and device, last sync and upload,
 * queue size, and per-agent files seen. Reads local files only.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config-store.js';
import type { CliContext } from '../context.js';
import { isLocked } from '../lock.js';
import { createOutput, formatInt, table } from '../output.js';
import { allParsers } from '../parsers/index.js';
import { ownPaths } from '../paths.js';
import { UploadQueue } from '../queue.js';
import { LocalState } from '../state.js';

export async function statusCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean', default: false } },
    allowPositionals: false,
  });
  const out = createOutput(ctx.stdout, ctx.stderr);
  const paths = ownPaths(ctx.env);
  const config = loadConfig(paths.configFile);
  const state = new LocalState(paths.stateDir);
  const perAgent: Record<string, { files: number; bytes: number; malformed: number }> = {};
  for (const p of allParsers)
    perAgent[p.agent] = { files: 0, bytes: 0, malformed: state.meta.malformed?.[p.agent] ?? 0 };
  for (const c of Object.values(state.cursors)) {
    const a = perAgent[c.agent];
    if (a !== undefined) {
      a.files += 1;
      a.bytes += c.size;
    }
  }
  const status = {
    linked: config.token !== undefined,
    server: config.server ?? null,
    device_id: config.deviceId ?? null,
    projects: config.projects === true,
    last_sync_at: state.meta.lastSyncAt ?? null,
    last_upload_at: state.meta.lastUploadAt ?? null,
    last_result: state.meta.lastResult ?? null,
    queued_buckets: new UploadQueue(paths.stateDir).size(),
    sync_running: isLocked(path.join(paths.stateDir, 'sync.lock')),
    agents: perAgent,
    config_file: paths.configFile,
    state_dir: paths.stateDir,
  };
  if (values.json === true) {
    out.data(JSON.stringify(status, null, 2));
    return 0;
  }
  out.data(
    status.linked ? `Linked to ${status.server} (device ${status.device_id})` : 'Not linked (run `tokentally link`)',
  );
  out.data(`Project attribution: ${status.projects ? 'on (owner/repo names are uploaded)' : 'off'}`);
  out.data(
    `Last sync: ${status.last_sync_at ?? 'never'}; last upload: ${status.last_upload_at ?? 'never'}${status.last_result !== null && status.last_result !== 'ok' ? ` (${status.last_result})` : ''}`,
  );
  out.data(`Queued buckets: ${formatInt(status.queued_buckets)}${status.sync_running ? ' (a sync is running)' : ''}`);
  out.data(
    table(
      ['agent', 'files', 'MB read', 'malformed lines'],
      Object.entries(perAgent).map(([a, s]) => [a, String(s.files), (s.bytes / 1e6).toFixed(1), String(s.malformed)]),
    ),
  );
  return 0;
}
