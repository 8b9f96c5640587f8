/**
 * @fileoverview Qwen Code (a Gemini CLI fork) chat parser:
 * `<QWEN_HOME|~/.qwen>/projects/<project>/chats/*.jsonl` and `.../tmp/<project>/chats/*.jsonl`.
 * `type: "assistant"` lines carry Gemini `usageMetadata`; lines are keyed by `uuid` so copies
 * in resumed sessions count once. Wire meaning: see gemini-usage.ts.
 */
import path from 'node:path';
import { readJsonl, type LineStats } from '../jsonl.js';
import { isRecord, str } from '../json-file.js';
import { normalizeModel, parseInstant } from '../usage.js';
import { walkFiles } from '../walk.js';
import { fromUsageMetadata } from './gemini-usage.js';
import type { AgentParser, LogFile } from './types.js';

export const qwenParser: AgentParser = {
  agent: 'qwen',
  roots: (r) => [path.join(r.qwenDir, 'projects'), path.join(r.qwenDir, 'tmp')],
  discover(r) {
    const accept = (name: string, dir: string): boolean =>
      name.endsWith('.jsonl') && dir.split(path.sep).includes('chats');
    return [
      ...walkFiles(path.join(r.qwenDir, 'projects'), accept),
      ...walkFiles(path.join(r.qwenDir, 'tmp'), accept),
    ].map((p): LogFile => ({ path: p, key: p, format: 'jsonl' }));
  },
  parse(file, start, sink) {
    const stats: LineStats = { lines: 0, malformed: 0 };
    const offset = readJsonl(
      file.path,
      start.offset,
      ['"usageMetadata"'],
      (obj, lineStart) => {
        if (obj['type'] !== undefined && obj['type'] !== 'assistant') return;
        const meta = obj['usageMetadata'];
        if (!isRecord(meta)) return;
        const counts = fromUsageMetadata(meta);
        if (counts.total === 0) return;
        const ts = parseInstant(obj['timestamp']);
        if (ts === undefined) {
          sink.malformed();
          return;
        }
        const uuid = str(obj['uuid']);
        sink.upsert(uuid !== undefined ? `qwen:${uuid}` : `${file.key}@${lineStart}`, {
          ts,
          source: 'qwen',
          model: normalizeModel(obj['model']),
          counts,
          cwd: str(obj['cwd']),
          session: str(obj['sessionId']) ?? path.basename(file.path, '.jsonl'),
        });
      },
      stats,
    );
    sink.malformed(stats.malformed);
    return { offset, state: null };
  },
};
