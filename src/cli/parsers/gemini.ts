/**
 * @fileoverview Gemini CLI session parser: `<GEMINI_CLI_HOME|~>/.gemini/tmp/<project>/chats/`
 * legacy `session-*.json` documents (rewritten whole) and the newer `*.jsonl` logs (line 1 =
 * session metadata, then message records; nested `<parent>/<sub>.jsonl` subagent files).
 *
 * Each `type: "gemini"` message carries per-response `tokens` {input, output, cached,
 * thoughts, tool, total}; messages are keyed by their id, so a legacy document re-read after a
 * rewrite, a JSON→JSONL migration leftover, or a re-appended update never counts twice (the
 * fullest version wins). Wire meaning: see gemini-usage.ts.
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

function emitMessage(m: Record<string, unknown>, fallbackId: string, fallbackTs: number | undefined, cwd: string | undefined, sink: RecordSink): void {
  if (m['type'] !== undefined && m['type'] !== 'gemini' && m['type'] !== 'model') return;
  const counts = messageCounts(m);
  if (counts === undefined || counts.total === 0) return;
  const ts = parseInstant(m['timestamp']) ?? fallbackTs;
  if (ts === undefined) {
    sink.malformed();
    return;
  }
  const id = str(m['id']);
  sink.upsert(id !== undefined ? `gemini:${id}` : fallbackId, { ts, source: 'gemini', model: normalizeModel(m['model']), counts, cwd });
}

export const geminiParser: AgentParser = {
  agent: 'gemini',
  roots: (r) => [path.join(r.geminiDir, 'tmp')],
  discover(r) {
    const files = walkFiles(path.join(r.geminiDir, 'tmp'), (name, dir) =>
      dir.split(path.sep).includes('chats') && (name.endsWith('.jsonl') || (name.startsWith('session-') && name.endsWith('.json'))),
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
      messages.forEach((m, i) => {
        if (isRecord(m)) emitMessage(m, `${file.key}#${i}`, fallbackTs, undefined, sink);
        else sink.malformed();
      });
      return { offset: 0, state: null };
    }
    const prev = isRecord(start.state) ? start.state : {};
    let cwd = str(prev['cwd']);
    const stats: LineStats = { lines: 0, malformed: 0 };
    const offset = readJsonl(file.path, start.offset, ['"tokens"', '"usageMetadata"', '"directories"'], (obj, lineStart) => {
      const dirs = obj['directories'];
      if (cwd === undefined && Array.isArray(dirs) && typeof dirs[0] === 'string') cwd = dirs[0];
      const inner = obj['message'];
      const m = isRecord(inner) && obj['tokens'] === undefined ? inner : obj;
      emitMessage(m, `${file.key}@${lineStart}`, parseInstant(obj['timestamp']), cwd, sink);
    }, stats);
    sink.malformed(stats.malformed);
    return { offset, state: cwd !== undefined ? { cwd } : null };
  },
};
