/**
 * @fileoverview Claude Code transcript parser: `<config dir>/projects/**\/*.jsonl`, subagent
 * files included, for every directory of `CLAUDE_CONFIG_DIR` (comma list) or `~/.claude` and
 * `$XDG_CONFIG_HOME/claude`.
 *
 * Wire meaning (source `claude`, all disjoint): input = input_tokens +
 * cache_creation_input_tokens; cached = cache_read_input_tokens; output = output_tokens
 * (thinking included by Anthropic); reasoning = 0; total = the sum of all four.
 *
 * Pitfalls handled (anchors.md §6.3): streaming duplicates share `message.id` + `requestId`
 * and the fullest line wins per field (ccusage #888); without `requestId` the message id is
 * the key within its session (ccusage #976, #1635: gateways may reuse one id); continued sessions copy messages into new files, so the ledger
 * dedupes across files; `/btw` sidechains replay a parent message under a new request id and
 * lose to the parent (ccusage #913), while genuine subagent sidechains count; zero-usage
 * synthetic rows are ignored.
 */
import path from 'node:path';
import { readJsonl, type LineStats } from '../jsonl.js';
import { isRecord, str } from '../json-file.js';
import { normalizeModel, parseInstant, toCount, type Counts } from '../usage.js';
import { walkFiles } from '../walk.js';
import type { AgentParser, LogFile, RecordSink } from './types.js';

/** Claude usage in wire meaning (all four channels disjoint). */
export function claudeCounts(usage: Record<string, unknown>): Counts {
  const input = toCount(usage['input_tokens']) + toCount(usage['cache_creation_input_tokens']);
  const cached = toCount(usage['cache_read_input_tokens']);
  const output = toCount(usage['output_tokens']);
  return { input, cached, output, reasoning: 0, total: input + cached + output };
}

export const claudeParser: AgentParser = {
  agent: 'claude',
  roots: (r) => r.claudeDirs.map((d) => path.join(d, 'projects')),
  discover(r) {
    const files: LogFile[] = [];
    const seen = new Set<string>();
    for (const dir of r.claudeDirs) {
      for (const p of walkFiles(path.join(dir, 'projects'), (name) => name.endsWith('.jsonl'))) {
        if (seen.has(p)) continue;
        seen.add(p);
        files.push({ path: p, key: p, format: 'jsonl' });
      }
    }
    // Main transcripts before subagent files, so a parent message is usually known before a replay.
    const isSub = (p: string): number => (p.includes(`${path.sep}subagents${path.sep}`) ? 1 : 0);
    return files.sort((a, b) => isSub(a.path) - isSub(b.path) || (a.path < b.path ? -1 : 1));
  },
  parse(file, start, sink: RecordSink) {
    const stats: LineStats = { lines: 0, malformed: 0 };
    const offset = readJsonl(
      file.path,
      start.offset,
      ['"usage"'],
      (obj, lineStart) => {
        const message = obj['message'];
        const msg = isRecord(message) ? message : undefined;
        const usage = msg?.['usage'] ?? obj['usage'];
        if (!isRecord(usage)) return;
        const counts = claudeCounts(usage);
        if (counts.total === 0) return; // synthetic bookkeeping rows
        const ts = parseInstant(obj['timestamp']);
        if (ts === undefined) {
          sink.malformed();
          return;
        }
        const messageId = str(msg?.['id']);
        const requestId = str(obj['requestId']) ?? '';
        // Without a request id (proxies, Anthropic-compatible gateways) a message id is only
        // trusted within its session: some gateways reuse one id everywhere (ccusage #1635).
        const scope = requestId !== '' ? requestId : `session:${str(obj['sessionId']) ?? file.key}`;
        const id =
          messageId !== undefined
            ? `${messageId}\u0000${scope}`
            : requestId !== ''
              ? `req\u0000${requestId}`
              : `${file.key}@${lineStart}`;
        sink.upsert(
          id,
          {
            ts,
            source: 'claude',
            model: normalizeModel(msg?.['model'] ?? obj['model']),
            counts,
            cwd: str(obj['cwd']),
            session: str(obj['sessionId']) ?? path.basename(file.path, '.jsonl'),
          },
          messageId !== undefined ? { group: messageId, sidechain: obj['isSidechain'] === true } : {},
        );
      },
      stats,
    );
    sink.malformed(stats.malformed);
    return { offset, state: null };
  },
};
