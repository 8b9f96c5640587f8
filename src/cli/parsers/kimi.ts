/**
 * @fileoverview Kimi parser for both layouts:
 * - legacy Kimi CLI `<KIMI_SHARE_DIR|KIMI_HOME|~/.kimi>/sessions/<workdir-hash>/<session>/wire.jsonl`
 *   (subagents in `subagents/` below it), whose
 *   `StatusUpdate` events carry `token_usage {input_other, output, input_cache_read,
 *   input_cache_creation}` and a `message_id`;
 * - Kimi Code `<KIMI_CODE_HOME|~/.kimi-code>/sessions/<key>/<session>/agents/<agent>/wire.jsonl`,
 *   whose turn-scoped `usage.record` rows carry `usage {inputOther, output, inputCacheRead,
 *   inputCacheCreation}` (session-scoped rows are running totals and are skipped); the model
 *   comes from the preceding `llm.request` (the record's own `model` is a config alias).
 *
 * Wire meaning (source `kimi`, Anthropic-style disjoint): input = other + cache creation;
 * cached = cache read; output; reasoning = 0; total = the sum. Records are keyed by message id
 * when present, else by their byte position in the append-only file.
 */
import path from 'node:path';
import { readJsonl, type LineStats } from '../jsonl.js';
import { isRecord, str } from '../json-file.js';
import { normalizeModel, parseInstant, toCount, type Counts } from '../usage.js';
import { walkFiles } from '../walk.js';
import type { AgentParser, LogFile } from './types.js';

function kimiCounts(other: unknown, output: unknown, read: unknown, creation: unknown): Counts {
  const input = toCount(other) + toCount(creation);
  const cached = toCount(read);
  const out = toCount(output);
  return { input, cached, output: out, reasoning: 0, total: input + cached + out };
}

/** The event object of a wire line, wherever the envelope put it. */
function eventOf(obj: Record<string, unknown>): Record<string, unknown> {
  for (const k of ['message', 'event', 'msg']) {
    const v = obj[k];
    if (isRecord(v) && typeof v['type'] === 'string') return v;
  }
  return obj;
}

export const kimiParser: AgentParser = {
  agent: 'kimi',
  roots: (r) => [path.join(r.kimiDir, 'sessions'), path.join(r.kimiCodeDir, 'sessions')],
  discover(r) {
    const accept = (name: string): boolean => name === 'wire.jsonl';
    return [
      ...walkFiles(path.join(r.kimiDir, 'sessions'), accept),
      ...walkFiles(path.join(r.kimiCodeDir, 'sessions'), accept),
    ].map((p): LogFile => ({ path: p, key: p, format: 'jsonl' }));
  },
  parse(file, start, sink) {
    const stats: LineStats = { lines: 0, malformed: 0 };
    // `<session>/wire.jsonl`, or Kimi Code's `<session>/agents/<agent>/wire.jsonl`
    const parts = path.dirname(file.path).split(path.sep);
    const session = (parts.at(-2) === 'agents' ? parts.at(-3) : parts.at(-1)) ?? file.key;
    // Kimi Code: `usage.record.model` is the config alias (e.g. `k3`); the real model id is on the
    // preceding `llm.request` event, kept across syncs in the file state.
    let requestModel = isRecord(start.state) ? str(start.state['model']) : undefined;
    const offset = readJsonl(
      file.path,
      start.offset,
      ['"token_usage"', '"usage.record"', '"llm.request"'],
      (obj, lineStart) => {
        const ev = eventOf(obj);
        const payload = isRecord(ev['payload']) ? ev['payload'] : ev;
        const type = ev['type'] ?? obj['type'];
        let counts: Counts | undefined;
        let model: unknown = payload['model'] ?? ev['model'] ?? obj['model'];
        let id: string | undefined;
        if (type === 'llm.request') {
          requestModel = str(model) ?? requestModel;
          return;
        }
        if (type === 'usage.record') {
          // session-scoped rows are running totals of the turn-scoped ones
          const scope = str(payload['usageScope']) ?? str(ev['usageScope']) ?? str(obj['usageScope']);
          if (scope !== undefined && scope.toLowerCase().includes('session')) return;
          const u = payload['usage'] ?? ev['usage'];
          if (!isRecord(u)) return;
          counts = kimiCounts(u['inputOther'], u['output'], u['inputCacheRead'], u['inputCacheCreation']);
          id = str(payload['messageId']) ?? str(payload['id']);
          model = requestModel ?? model;
        } else {
          const u = payload['token_usage'];
          if (!isRecord(u)) return;
          counts = kimiCounts(u['input_other'], u['output'], u['input_cache_read'], u['input_cache_creation']);
          id = str(payload['message_id']);
        }
        if (counts.total === 0) return;
        const ts = parseInstant(obj['timestamp'] ?? obj['time'] ?? ev['timestamp'] ?? ev['time']);
        if (ts === undefined) {
          sink.malformed();
          return;
        }
        sink.upsert(id !== undefined ? `kimi:${id}` : `${file.key}@${lineStart}`, {
          ts,
          source: 'kimi',
          model: normalizeModel(model),
          counts,
          session,
        });
      },
      stats,
    );
    sink.malformed(stats.malformed);
    return { offset, state: requestModel !== undefined ? { model: requestModel } : null };
  },
};
