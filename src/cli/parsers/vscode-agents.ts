/**
 * @fileoverview The VS Code agents Cline, Roo Code and Kilo Code (Roo and Kilo are Cline's
 * descendants and keep its layout): `<editor>/User/globalStorage/<extension id>/tasks/<task>/ui_messages.json`,
 * for VS Code, Insiders, VSCodium, Cursor and Windsurf (or `VSCODE_GLOBAL_STORAGE`, a
 * comma-separated list of globalStorage directories). The document is rewritten as the task
 * runs; each request is one `{"type":"say","say":"api_req_started","ts":…}` entry whose `text` is
 * JSON `{tokensIn, tokensOut, cacheWrites, cacheReads, cost, apiProtocol}`, first written without
 * counts and filled in when the request ends (so entries are keyed by task and `ts`, and the
 * fullest copy wins). The model comes from Cline's `task_metadata.json` `model_usage` (the
 * last model in use at or before the request), else `unknown`.
 *
 * Wire meaning (disjoint): with `apiProtocol` `openai`, tokensIn includes the cache reads, so
 * input = tokensIn − cacheReads + cacheWrites; otherwise (Anthropic-style) input = tokensIn +
 * cacheWrites. cached = cacheReads; output = tokensOut; reasoning = 0; total = the sum.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isRecord, str } from '../json-file.js';
import { normalizeModel, parseInstant, toCount, type Counts } from '../usage.js';
import { subdirs } from '../walk.js';
import type { AgentId, AgentParser, LogFile, RecordSink } from './types.js';

export function clineCounts(req: Record<string, unknown>): Counts {
  const tokensIn = toCount(req['tokensIn']);
  const cached = toCount(req['cacheReads']);
  const writes = toCount(req['cacheWrites']);
  const input = (req['apiProtocol'] === 'openai' ? Math.max(0, tokensIn - cached) : tokensIn) + writes;
  const output = toCount(req['tokensOut']);
  return { input, cached, output, reasoning: 0, total: input + cached + output };
}

/** (time, model) pairs from Cline's task metadata, oldest first. */
function modelTimeline(taskDir: string): [number, string][] {
  try {
    const meta: unknown = JSON.parse(fs.readFileSync(path.join(taskDir, 'task_metadata.json'), 'utf8'));
    const usage = isRecord(meta) && Array.isArray(meta['model_usage']) ? meta['model_usage'].filter(isRecord) : [];
    return usage
      .map((u): [number, string] => [parseInstant(u['ts']) ?? 0, str(u['model_id']) ?? 'unknown'])
      .sort((a, b) => a[0] - b[0]);
  } catch {
    return [];
  }
}

function emitTask(agent: AgentId, file: LogFile, entries: unknown[], sink: RecordSink): void {
  const taskDir = path.dirname(file.path);
  const task = path.basename(taskDir);
  const models = modelTimeline(taskDir);
  for (const e of entries) {
    if (!isRecord(e) || e['say'] !== 'api_req_started' || typeof e['text'] !== 'string') continue;
    let req: unknown;
    try {
      req = JSON.parse(e['text']);
    } catch {
      sink.malformed();
      continue;
    }
    if (!isRecord(req)) continue;
    const counts = clineCounts(req);
    if (counts.total === 0) continue;
    const ts = parseInstant(e['ts']);
    if (ts === undefined) {
      sink.malformed();
      continue;
    }
    let model = 'unknown';
    for (const [at, m] of models) if (at <= ts) model = m;
    sink.upsert(`${agent}:${task}:${ts}`, {
      ts,
      source: agent,
      model: normalizeModel(model),
      counts,
      session: task,
    });
  }
}

function createVscodeAgentParser(agent: AgentId, extensionIds: readonly string[]): AgentParser {
  const taskRoots = (dirs: readonly string[]): string[] =>
    dirs.flatMap((d) => extensionIds.map((id) => path.join(d, id, 'tasks')));
  return {
    agent,
    roots: (r) => taskRoots(r.vscodeStorageDirs),
    discover(r) {
      const files: LogFile[] = [];
      for (const root of taskRoots(r.vscodeStorageDirs)) {
        for (const taskDir of subdirs(root)) {
          const p = path.join(taskDir, 'ui_messages.json');
          if (fs.existsSync(p))
            files.push({ path: p, key: p, format: 'document', companions: [path.join(taskDir, 'task_metadata.json')] });
        }
      }
      return files;
    },
    parse(file, _start, sink) {
      // Caught mid-rewrite: the throw keeps the cursor and what the task counted so far.
      const doc: unknown = JSON.parse(fs.readFileSync(file.path, 'utf8'));
      if (Array.isArray(doc)) emitTask(agent, file, doc, sink);
      else sink.malformed();
      return { offset: 0, state: null };
    },
  };
}

export const clineParser = createVscodeAgentParser('cline', ['saoudrizwan.claude-dev']);
export const rooCodeParser = createVscodeAgentParser('roo-code', ['rooveterinaryinc.roo-cline']);
export const kiloCodeParser = createVscodeAgentParser('kilo-code', ['kilocode.kilo-code']);
