/**
 * @fileoverview `tokentally status [--json]`: linked server and device, last sync and upload (local
 * time and how long ago), queue size, and per agent the files seen, with totals. Agents without
 * logs are named in one line; the file that last held a malformed line is named; agents that send
 * their usage to the linked server over OTLP (not read by sync) are named. Local files only.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config-store.js';
import type { CliContext } from '../context.js';
import { isLocked } from '../lock.js';
import { counted, createOutput, formatBytes, formatInt, table } from '../output.js';
import { allParsers } from '../parsers/index.js';
import { exporterLine, otlpExporters } from '../otlp-exporters.js';
import { agentRoots, ownPaths } from '../paths.js';
import { UploadQueue } from '../queue.js';
import { LocalState } from '../state.js';
import { createStyle, whenText } from '../style.js';
import { defaultZone } from '../time-zone.js';

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
  const perAgent: Record<string, { files: number; bytes: number; malformed: number; malformed_file: string | null }> =
    {};
  for (const p of allParsers)
    perAgent[p.agent] = {
      files: 0,
      bytes: 0,
      malformed: state.meta.malformed?.[p.agent] ?? 0,
      malformed_file: state.meta.malformedFiles?.[p.agent]?.file ?? null,
    };
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
    otlp_exporters: otlpExporters(ctx.env, agentRoots(ctx.env), config.server),
    config_file: paths.configFile,
    state_dir: paths.stateDir,
  };
  if (values.json === true) {
    out.data(JSON.stringify(status, null, 2));
    return 0;
  }
  const style = createStyle(ctx.env, ctx.stdout);
  const tz = defaultZone(ctx.env);
  const now = ctx.now();
  out.data(
    status.linked
      ? `Linked to ${style.bold(status.server ?? '')} (device ${status.device_id})`
      : style.yellow('Not linked (run `tokentally link`)'),
  );
  out.data(`Last sync:    ${whenText(state.meta.lastSyncAt, now, tz)}`);
  const failed = status.last_result !== null && status.last_result !== 'ok';
  out.data(
    `Last upload:  ${whenText(state.meta.lastUploadAt, now, tz)}${failed ? style.red(` (${status.last_result})`) : ''}`,
  );
  out.data(
    `Queued:       ${counted(status.queued_buckets, 'bucket')}${status.sync_running ? ' (a sync is running)' : ''}`,
  );
  out.data(`Projects:     ${status.projects ? 'on (owner/repo names are uploaded)' : 'off'}`);
  const seen = Object.entries(perAgent).filter(([, s]) => s.files > 0 || s.malformed > 0);
  const none = Object.entries(perAgent)
    .filter(([, s]) => s.files === 0 && s.malformed === 0)
    .map(([a]) => a);
  out.data('');
  if (seen.length === 0) out.data('No agent logs read yet (run `tokentally sync`).');
  else {
    const sum = seen.reduce(
      (t, [, s]) => ({ files: t.files + s.files, bytes: t.bytes + s.bytes, malformed: t.malformed + s.malformed }),
      {
        files: 0,
        bytes: 0,
        malformed: 0,
      },
    );
    const row = (name: string, s: { files: number; bytes: number; malformed: number }): string[] => [
      name,
      formatInt(s.files),
      formatBytes(s.bytes),
      s.malformed > 0 ? style.yellow(formatInt(s.malformed)) : '0',
    ];
    out.data(
      table(['agent', 'files', 'read', 'malformed lines'].map(style.bold), [
        ...seen.map(([a, s]) => row(a, s)),
        row('total', sum).map(style.bold),
      ]),
    );
  }
  if (none.length > 0) out.data(style.dim(`No logs: ${none.join(', ')}.`));
  for (const e of status.otlp_exporters) out.data(exporterLine(e));
  for (const [agent, s] of seen)
    if (s.malformed_file !== null) out.data(`${agent}: the last malformed line was in ${s.malformed_file}`);
  return 0;
}
