/**
 * @fileoverview `tokentally doctor`: checks the config (present, mode 0600), the server
 * (GET /healthz, whether its version is this CLI's, and whether it is repricing its stored costs),
 * the device token (a sync ping), the queue and lock, whether the installed hooks still run
 * tokentally (hook-checks.ts), and where each agent's logs are looked for. It prints the verdict
 * first, then the problems, then the rest; agents without logs share one line. Exit 0 when
 * everything needed works, 1 otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ApiError, postJson } from '../api.js';
import { configMode, loadConfig } from '../config-store.js';
import type { CliContext } from '../context.js';
import { isLocked } from '../lock.js';
import { counted, createOutput } from '../output.js';
import { allParsers } from '../parsers/index.js';
import { exporterLine, otlpExporters } from '../otlp-exporters.js';
import { agentRoots, ownPaths } from '../paths.js';
import { UploadQueue } from '../queue.js';
import { pingUrl } from '../upload.js';
import { sqliteDriver, SQLITE_MISSING } from '../sqlite.js';
import { VERSION } from '../version.js';
import { parseArgs } from 'node:util';
import { createStyle } from '../style.js';
import { checkHooks } from '../hooks/hook-checks.js';

export async function doctorCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { verbose: { type: 'boolean', short: 'v', default: false } },
    allowPositionals: false,
  });
  const verbose = values.verbose === true;
  const out = createOutput(ctx.stdout, ctx.stderr);
  const paths = ownPaths(ctx.env);
  const config = loadConfig(paths.configFile);
  const style = createStyle(ctx.env, ctx.stdout);
  const problems: string[] = [];
  const details: string[] = [];
  const noLogs: string[] = [];
  const ok = (msg: string): void => void details.push(`${style.green('ok')}    ${msg}`);
  const bad = (msg: string): void => void problems.push(`${style.red('FAIL')}  ${msg}`);
  const note = (msg: string): void => void details.push(`--    ${msg}`);

  const mode = configMode(paths.configFile);
  // A missing config and a missing server are one problem for the user: the machine is not linked.
  if (mode === undefined) bad(`not linked (no config at ${paths.configFile}): run \`tokentally link\``);
  else if ((mode & 0o077) !== 0)
    bad(`${paths.configFile} is readable by others (mode ${mode.toString(8)}); run chmod 600 on it`);
  else ok(`config ${paths.configFile} (mode 600)`);

  if (config.server !== undefined) {
    try {
      const res = await fetch(`${config.server}/healthz`, { signal: AbortSignal.timeout(ctx.api.timeoutMs) });
      if (res.ok) {
        ok(`server ${config.server} is reachable`);
        const health = (await res.json().catch(() => ({}))) as {
          version?: unknown;
          pricing?: { state?: unknown; rows_done?: unknown };
        };
        const serverVersion = typeof health.version === 'string' ? health.version : undefined;
        if (serverVersion === undefined) note(`the server does not say its version; this CLI is ${VERSION}`);
        else if (serverVersion === VERSION) ok(`CLI and server versions match (${VERSION})`);
        else
          note(
            `this CLI is ${VERSION} but the server is ${serverVersion}: install its CLI with \`npm install -g ${config.server}/cli/tokentally.tgz\``,
          );
        if (health.pricing?.state === 'repricing') {
          const done =
            typeof health.pricing.rows_done === 'number' ? ` (${health.pricing.rows_done} daily rows done)` : '';
          note(
            `the server is repricing its stored costs with new price data${done}; costs use the previous prices until it ends`,
          );
        }
      } else bad(`server ${config.server} answered ${res.status} on /healthz`);
    } catch (err) {
      bad(`server ${config.server} is not reachable: ${(err as Error).message}`);
    }
    if (config.token !== undefined) {
      try {
        await postJson(pingUrl(config.server), undefined, config.token, { ...ctx.api, attempts: 1 });
        ok('device token accepted (sync ping)');
      } catch (err) {
        if (err instanceof ApiError && (err.status === 401 || err.status === 403))
          bad('device token rejected: link again with `tokentally link`');
        else bad(`could not check the device token: ${(err as Error).message}`);
      }
    }
  } else if (mode !== undefined)
    bad(`not linked to a server (${paths.configFile} names none): run \`tokentally link\``);

  const queued = new UploadQueue(paths.stateDir).size();
  note(`${counted(queued, 'bucket')} waiting in the upload queue`);
  if (isLocked(path.join(paths.stateDir, 'sync.lock'))) note('a sync is running right now');

  const roots = agentRoots(ctx.env);
  const exporting = otlpExporters(ctx.env, roots, config.server);
  for (const e of exporting) ok(exporterLine(e));
  for (const parser of allParsers) {
    if (exporting.some((e) => e.agent === parser.agent)) continue;
    const dirs = parser.roots(roots);
    const found = dirs.filter((d) => fs.existsSync(d));
    const discovered = found.length > 0 ? parser.discover(roots) : [];
    const files = discovered.length;
    if (found.length === 0) {
      noLogs.push(parser.agent);
      continue;
    }
    if (parser.noTokenCounts === undefined || files > 0)
      ok(`${parser.agent}: ${counted(files, 'log file')} under ${found.join(', ')}`);
    if (parser.noTokenCounts !== undefined) note(`${parser.agent}: ${parser.noTokenCounts}`);
    if (parser.needsSqlite === true && discovered.some((f) => f.path.endsWith('.db')) && sqliteDriver() === null) {
      bad(`${parser.agent}: its database cannot be read: ${SQLITE_MISSING}`);
    }
  }
  for (const c of checkHooks(ctx)) (c.level === 'fail' ? bad : c.level === 'ok' ? ok : note)(c.message);

  const withLogs = allParsers.length - noLogs.length;
  out.data(
    problems.length === 0
      ? style.green(`All good: ${counted(withLogs, 'agent')} with logs, nothing needs doing.`)
      : style.red(`${problems.length === 1 ? '1 problem needs' : `${problems.length} problems need`} attention:`),
  );
  for (const p of problems) out.data(p);
  out.data('');
  for (const d of details) out.data(d);
  if (noLogs.length > 0)
    out.data(style.dim(`--    no logs: ${noLogs.join(', ')} (\`tokentally doctor --verbose\` shows where it looked)`));
  if (verbose)
    for (const parser of allParsers)
      if (noLogs.includes(parser.agent))
        out.data(style.dim(`      ${parser.agent}: ${parser.roots(roots).join(', ')}`));
  return problems.length > 0 ? 1 : 0;
}
