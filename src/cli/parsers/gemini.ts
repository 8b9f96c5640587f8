/**
 * @fileoverview Gemini CLI session parser: `<GEMINI_CLI_HOME|~>/.gemini/tmp/<project>/chats/`
 * legacy `session-*.json` documents (rewritten whole) and the newer `*.jsonl` logs (line 1 =
 * session metadata, then message records; nested `<parent>/<sub>.jsonl` subagent files).
 *
 * Each `type: "gemini"` message carries per-response `tokens` {input, output, cached,
 * thoughts, tool, total}; messages are keyed by their id, so a legacy document re-read after a
 * rewrite, a JSON→JSONL migration leftover, a message re-appended on every update
 * (chatRecordingService pushMessage), a `message_update` row or a `$set.messages` snapshot
 * never counts twice (the fullest version wins). Wire meaning: see gemini-usage.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readJsonl, type LineStats } from '../jsonl.js';
import { isRecord, str } from '../json-file.js';
import { normalizeModel, parseInstant, type Counts } from '../usage.js';
import { walkFiles } from '../walk.js';
import { fromUsageMetadata, geminiFamilyCounts } from './gemini-usage.js';
import type { AgentParser, LogFile, RecordSink } from './types.js';

function messageCounts(m: Record<string, unknown>): Counts | undefined {
  const tokens = m['tokens'];
  if (isRecord(tokens)) {
    return geminiFamilyCounts({
      input: tokens['input'],
      cached: tokens['cached'],
      output: tokens['output'],
      thoughts: tokens['thoughts'],
      tool: tokens['tool'],
      total: tokens['total'],
    });
  }
  const meta = m['usageMetadata'];
  return isRecord(meta) ? fromUsageMetadata(meta) : undefined;
}

/** Running context of a JSONL session (also the fallbacks for partial `message_update` rows). */
interface JsonlContext {
  cwd?: string | undefined;
  /** The file's session: a chat file is one session (a subagent's file counts as its own). */
  session?: string | undefined;
  lastTs?: number | undefined;
  lastModel?: string | undefined;
}

function emitMessage(
  m: Record<string, unknown>,
  fallbackId: string,
  fallbackTs: number | undefined,
  ctx: JsonlContext,
  sink: RecordSink,
): void {
  const type = m['type'];
  if (type !== undefined && type !== 'gemini' && type !== 'model' && type !== 'message_update') return;
  const counts = messageCounts(m);
  if (counts === undefined || counts.total === 0) return;
  const ts = parseInstant(m['timestamp']) ?? fallbackTs ?? ctx.lastTs;
  if (ts === undefined) {
    sink.malformed();
    return;
  }
  const model = str(m['model']) ?? ctx.lastModel;
  ctx.lastTs = ts;
  if (model !== undefined) ctx.lastModel = model;
  const id = str(m['id']);
  sink.upsert(id !== undefined ? `gemini:${id}` : fallbackId, {
    ts,
    source: 'gemini',
    model: normalizeModel(model),
    counts,
    cwd: ctx.cwd,
    session: ctx.session,
  });
}

export const geminiParser: AgentParser = {
  agent: 'gemini',
  roots: (r) => [path.join(r.geminiDir, 'tmp')],
  discover(r) {
    const files = walkFiles(
      path.join(r.geminiDir, 'tmp'),
      (name, dir) =>
        dir.split(path.sep).includes('chats') &&
        (name.endsWith('.jsonl') || (name.startsWith('session-') && name.endsWith('.json'))),
    );
    return files.map((p): LogFile => ({ path: p, key: p, format: p.endsWith('.jsonl') ? 'jsonl' : 'document' }));
  },
  parse(file, start, sink) {
    if (file.format === 'document') {
      let doc: unknown;
      try {
        doc = JSON.parse(fs.readFileSync(file.path, 'utf8'));
      } catch {
        sink.malformed();
        return { offset: 0, state: null };
      }
      const messages = isRecord(doc) ? doc['messages'] : undefined;
      if (!Array.isArray(messages)) {
        sink.malformed();
        return { offset: 0, state: null };
      }
      const fallbackTs = isRecord(doc) ? parseInstant(doc['startTime']) : undefined;
      const ctx: JsonlContext = {
        session: str(isRecord(doc) ? doc['sessionId'] : undefined) ?? path.basename(file.path, '.json'),
      };
      messages.forEach((m, i) => {
        if (isRecord(m)) emitMessage(m, `${file.key}#${i}`, fallbackTs, ctx, sink);
        else sink.malformed();
      });
      return { offset: 0, state: null };
    }
    // Records: line 1 session metadata; messages `{id, type: "gemini", tokens, ...}`, re-appended
    // whole when they change; `{type: "message_update", id, ...}` partial updates; and
    // `{"$set": {...}}` rows that may carry a `messages` snapshot.
    const prev = isRecord(start.state) ? start.state : {};
    const ctx: JsonlContext = {
      cwd: str(prev['cwd']),
      lastTs: typeof prev['lastTs'] === 'number' ? prev['lastTs'] : undefined,
      lastModel: str(prev['lastModel']),
      session: path.basename(file.path, '.jsonl'),
    };
    const stats: LineStats = { lines: 0, malformed: 0 };
    const offset = readJsonl(
      file.path,
      start.offset,
      ['"tokens"', '"usageMetadata"', '"directories"'],
      (obj, lineStart) => {
        const set = isRecord(obj['$set']) ? obj['$set'] : undefined;
        const meta = set ?? obj;
        const dirs = meta['directories'];
        if (ctx.cwd === undefined && Array.isArray(dirs) && typeof dirs[0] === 'string') ctx.cwd = dirs[0];
        if (set !== undefined) {
          const messages = set['messages'];
          if (Array.isArray(messages))
            messages.forEach(
              (m, i) => isRecord(m) && emitMessage(m, `${file.key}@${lineStart}#${i}`, undefined, ctx, sink),
            );
          return;
        }
        const inner = obj['message'];
        const m = isRecord(inner) && obj['tokens'] === undefined ? inner : obj;
        emitMessage(m, `${file.key}@${lineStart}`, parseInstant(obj['timestamp']), ctx, sink);
      },
      stats,
    );
    sink.malformed(stats.malformed);
    return { offset, state: { cwd: ctx.cwd, lastTs: ctx.lastTs, lastModel: ctx.lastModel } };
  },
};
