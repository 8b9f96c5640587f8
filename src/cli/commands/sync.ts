/**
 * @fileoverview `tokentally sync [--quiet] [--projects|--no-projects]`: read what changed in
 * the agents' logs, queue the changed buckets as absolute totals, upload the queue (or ping
 * when nothing changed), and say what was sent.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseBucketKey } from '../buckets.js';
import { loadConfig, saveConfig } from '../config-store.js';
import { formatTokens, formatUsd, loadPricer, type PricedBucket, type Pricer } from '../cost.js';
import type { CliContext } from '../context.js';
import { scan, type ScanResult } from '../engine.js';
import { acquireLock } from '../lock.js';
import { counted, createOutput, formatInt, type Output } from '../output.js';
import { allParsers } from '../parsers/index.js';
import { exporterLine, otlpExporters } from '../otlp-exporters.js';
import { agentRoots, ownPaths } from '../paths.js';
import { groupToWire, UploadQueue, type QueuedGroup } from '../queue.js';
import { LocalState } from '../state.js';
import { drainQueue, syncPing, type UploadResult } from '../upload.js';

/** Bytes to read before a progress bar is worth drawing. */
const PROGRESS_MIN_BYTES = 64 * 1024 * 1024;

export async function syncCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      quiet: { type: 'boolean', short: 'q', default: false },
      projects: { type: 'boolean' },
      'no-projects': { type: 'boolean' },
      'no-upload': { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  const out = createOutput(ctx.stdout, ctx.stderr, values.quiet === true);
  const paths = ownPaths(ctx.env);
  const config = loadConfig(paths.configFile);
  if (values.projects === true || values['no-projects'] === true) {
    config.projects = values.projects === true;
    saveConfig(paths.configFile, config);
  }
  const lock = acquireLock(path.join(paths.stateDir, 'sync.lock'));
  if (lock === undefined) {
    out.info('Another tokentally sync is running; nothing to do.');
    return 0;
  }
  try {
    const { result, state } = await scanAndQueue(ctx, out, config.projects === true);
    reportScan(out, result, new UploadQueue(paths.stateDir).size());
    if (values['no-upload'] === true) return 0;
    if (config.server === undefined || config.token === undefined) {
      const pending = new UploadQueue(paths.stateDir).size();
      const server = config.server ?? ctx.env['TOKENTALLY_SERVER'] ?? 'https://<your-server>';
      out.error(
        `this machine is not linked to a server; ${counted(pending, 'bucket')} ${pending === 1 ? 'waits' : 'wait'} in the local queue. Create a link code in the dashboard, then run:\n` +
          `  tokentally link --server ${server} --code XXXX-XXXX-XXXX`,
      );
      return 1;
    }
    return await upload(ctx, out, state, config.server, config.token);
  } finally {
    lock.release();
  }
}

/** Scan all agents, queue changed groups, commit local state. Exported for `report --refresh`. */
export async function scanAndQueue(
  ctx: CliContext,
  out: Output,
  projects: boolean,
): Promise<{ result: ScanResult; state: LocalState }> {
  const paths = ownPaths(ctx.env);
  const state = new LocalState(paths.stateDir);
  const roots = agentRoots(ctx.env);
  // An agent that sends its usage to the linked server over OTLP is counted there: its logs are not read.
  const exporting = otlpExporters(ctx.env, roots, loadConfig(paths.configFile).server);
  for (const e of exporting) out.info(exporterLine(e));
  const skipped = new Set<string>(exporting.map((e) => e.agent));
  let bar = out.progress('Reading agent logs', 0);
  const result = scan({
    roots,
    state,
    parsers: allParsers.filter((p) => !skipped.has(p.agent)),
    onMalformed: (agent, file, lines) => {
      (state.meta.malformedFiles ??= {})[agent] = { file, lines, at: new Date(ctx.now()).toISOString() };
    },
    now: ctx.now(),
    onPlan: (total) => {
      if (total >= PROGRESS_MIN_BYTES) bar = out.progress('Reading agent logs', total);
    },
    onProgress: (done) => bar.update(done),
  });
  bar.done();
  const groups: QueuedGroup[] = [];
  for (const [g, variants] of state.buckets.changedVariants()) {
    groups.push({ g, b: groupToWire(variants, projects, new Map(Object.entries(state.projectRefs))) });
  }
  new UploadQueue(paths.stateDir).append(groups);
  state.meta.lastSyncAt = new Date(ctx.now()).toISOString();
  for (const [agent, summary] of Object.entries(result.agents)) {
    if (summary.malformed === 0) continue;
    state.meta.malformed ??= {};
    state.meta.malformed[agent] = (state.meta.malformed[agent] ?? 0) + summary.malformed;
  }
  await state.commitAsync();
  return { result, state };
}

function reportScan(out: Output, r: ScanResult, queued: number): void {
  const parts = Object.entries(r.agents)
    .filter(([, s]) => s.changed > 0 || s.malformed > 0)
    .map(
      ([a, s]) =>
        `${a}: ${counted(s.changed, 'file')} read, ${counted(s.records, 'new record')}${s.malformed > 0 ? `, ${counted(s.malformed, 'malformed line')} skipped` : ''}`,
    );
  for (const s of Object.values(r.agents)) for (const msg of s.unavailable ?? []) out.warn(msg);
  // With buckets still queued (read before linking, or a failed upload) the upload line says what is sent.
  if (parts.length === 0 && queued === 0) out.info('No new usage in the agent logs.');
  else for (const p of parts) out.info(p);
}

async function upload(ctx: CliContext, out: Output, state: LocalState, server: string, token: string): Promise<number> {
  const paths = ownPaths(ctx.env);
  const queue = new UploadQueue(paths.stateDir);
  const pendingBuckets = queue.size();
  if (pendingBuckets === 0) {
    const err = await syncPing(server, token, ctx.api);
    state.meta.lastResult = err === undefined ? 'ok' : `sync ping failed: ${err.message}`;
    await state.commitAsync();
    if (err !== undefined) {
      out.warn(`sync ping failed: ${err.message}`);
      return err.status === 401 ? 1 : 0;
    }
    out.info('Nothing new to upload; recorded a sync ping.');
    return 0;
  }
  const linkedAt = loadConfig(paths.configFile).linkedAt;
  const firstUpload =
    state.meta.lastUploadAt === undefined || (linkedAt !== undefined && state.meta.lastUploadAt < linkedAt);
  const sent = queue.pending();
  const bar = pendingBuckets >= 2000 ? out.progress('Uploading', pendingBuckets) : out.progress('', 0);
  const api = {
    ...ctx.api,
    onRetry: (ms: number, status: number) =>
      out.info(`server busy (${status || 'network'}); retrying in ${Math.ceil(ms / 1000)} s`),
  };
  const res: UploadResult = await drainQueue(queue, server, token, api, (sent) => bar.update(sent));
  bar.done();
  if (res.buckets > 0) state.meta.lastUploadAt = new Date(ctx.now()).toISOString();
  state.meta.lastResult = res.error === undefined ? 'ok' : `error: ${res.error.message}`;
  await state.commitAsync();
  if (res.buckets > 0 && !out.quiet) {
    const pricer = await loadPricer();
    const plural = `${formatInt(res.buckets)} half-hour bucket${res.buckets === 1 ? '' : 's'}`;
    const fresh = newUsageSummary(state, pricer);
    if (firstUpload) {
      const all = sentSummary(sent, pricer);
      out.info(`Sent ${plural}: ${all.text}.`);
    } else if (fresh !== '') out.info(`Sent ${plural}; new usage: ${fresh}.`);
    else out.info(`Sent ${plural} left from an earlier sync.`);
    out.info(
      `The server stored ${formatInt(res.inserted)} new or changed, ${formatInt(res.skipped)} unchanged (${res.batches} request${res.batches === 1 ? '' : 's'}).`,
    );
  }
  for (const r of res.rejected)
    out.warn(
      `the server refused bucket group ${r.group
        .split('\u001f')
        .map((x, i) => (i === 0 ? new Date(Number(x)).toISOString() : x))
        .join(' / ')} and it was dropped: ${r.reason}`,
    );
  if (res.error !== undefined) {
    const hint =
      res.error.status === 401
        ? ' (the device token was refused: run `tokentally link` again)'
        : res.error.retryable
          ? ' (will retry on the next sync)'
          : '';
    out.error(`upload stopped: ${res.error.message}${hint}; ${counted(res.pending, 'bucket')} kept in the queue.`);
    return 1;
  }
  return 0;
}

/**
 * The new usage this sync read, per agent, biggest first: `codex 1.24M tokens $3.10 · claude 0.48M $1.92`.
 * Priced like `report` (the server's pricing code, per model and UTC day).
 */
export function newUsageSummary(state: LocalState, costMicros: Pricer): string {
  const bySource = new Map<string, { tokens: number; buckets: PricedBucket[] }>();
  for (const [key, counts] of state.buckets.delta) {
    if (counts.total === 0) continue;
    const id = parseBucketKey(key);
    let s = bySource.get(id.source);
    if (s === undefined) bySource.set(id.source, (s = { tokens: 0, buckets: [] }));
    s.tokens += counts.total;
    s.buckets.push({ hourStart: id.hourStart, source: id.source, model: id.model, counts });
  }
  return [...bySource]
    .sort((a, b) => b[1].tokens - a[1].tokens)
    .map(
      ([source, s], i) =>
        `${source} ${formatTokens(s.tokens)}${i === 0 ? ' tokens' : ''} ${formatUsd(costMicros(s.buckets))}`,
    )
    .join(' · ');
}

/** Everything in the queue about to be sent: `1.01M tokens, $1.21 (codex 0.9M $1.10 · claude 0.11M $0.11)`. */
export function sentSummary(groups: readonly QueuedGroup[], costMicros: Pricer): { tokens: number; text: string } {
  const bySource = new Map<string, { tokens: number; buckets: PricedBucket[] }>();
  let tokens = 0;
  for (const g of groups)
    for (const b of g.b) {
      let s = bySource.get(b.source);
      if (s === undefined) bySource.set(b.source, (s = { tokens: 0, buckets: [] }));
      s.tokens += b.total_tokens;
      tokens += b.total_tokens;
      s.buckets.push({
        hourStart: Date.parse(b.hour_start),
        source: b.source,
        model: b.model,
        counts: {
          input: b.input_tokens,
          cached: b.cached_input_tokens,
          output: b.output_tokens,
          reasoning: b.reasoning_output_tokens,
          total: b.total_tokens,
        },
      });
    }
  const all = [...bySource.values()].flatMap((s) => s.buckets);
  const parts = [...bySource]
    .sort((a, b) => b[1].tokens - a[1].tokens)
    .map(([source, s]) => `${source} ${formatTokens(s.tokens)} ${formatUsd(costMicros(s.buckets))}`);
  const text = `${formatTokens(tokens)} tokens, ${formatUsd(costMicros(all))}${parts.length > 1 ? ` (${parts.join(' · ')})` : ''}`;
  return { tokens, text };
}
