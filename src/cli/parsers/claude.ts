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
import { normalizeModel, parseInstant, toCount, type Counts, type UsageRecord } from '../usage.js';
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
    const line = new LineHandler(file, sink);
    const offset = readJsonl(
      file.path,
      start.offset,
      ['"usage"'],
      (obj, lineStart) => line.handle(obj, lineStart),
      stats,
    );
    sink.malformed(stats.malformed);
    return { offset, state: null };
  },
};

/**
 * Turns one file's usage lines into upserts. Claude Code writes a message once per content block
 * (thinking, text, tool use), usually with the same usage: a line identical in everything the
 * engine uses to the line just before it can only be a duplicate the ledger would skip, so it is
 * reported as skipped without another upsert. Repeated strings (session, cwd, model) are passed
 * on as one string, so the engine's maps hash each once.
 */
class LineHandler {
  private prev: { id: string; rec: UsageRecord; group: string | undefined; sidechain: boolean } | undefined;
  private readonly fallbackSession: string;

  constructor(
    private readonly file: LogFile,
    private readonly sink: RecordSink,
  ) {
    this.fallbackSession = path.basename(file.path, '.jsonl');
  }

  handle(obj: Record<string, unknown>, lineStart: number): void {
    const { file, sink } = this;
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
    const sessionId = str(obj['sessionId']);
    // Without a request id (proxies, Anthropic-compatible gateways) a message id is only
    // trusted within its session: some gateways reuse one id everywhere (ccusage #1635).
    const scope = requestId !== '' ? requestId : `session:${sessionId ?? file.key}`;
    const id =
      messageId !== undefined
        ? `${messageId}\u0000${scope}`
        : requestId !== ''
          ? `req\u0000${requestId}`
          : `${file.key}@${lineStart}`;
    const prev = this.prev;
    const rec: UsageRecord = {
      ts,
      source: 'claude',
      model: same(prev?.rec.model, normalizeModel(msg?.['model'] ?? obj['model'])),
      counts,
      cwd: same(prev?.rec.cwd, str(obj['cwd'])),
      session: same(prev?.rec.session, sessionId ?? this.fallbackSession),
    };
    const sidechain = obj['isSidechain'] === true;
    if (
      prev !== undefined &&
      prev.id === id &&
      prev.group === messageId &&
      prev.sidechain === sidechain &&
      sameRecord(prev.rec, rec)
    ) {
      sink.skipped();
      return;
    }
    this.prev = { id, rec, group: messageId, sidechain };
    sink.upsert(id, rec, messageId !== undefined ? { group: messageId, sidechain } : {});
  }
}

/** `b`, as the string `a` when they are equal. */
function same<T extends string | undefined>(a: string | undefined, b: T): T {
  return a !== undefined && a === b ? (a as T) : b;
}

function sameRecord(a: UsageRecord, b: UsageRecord): boolean {
  return (
    a.ts === b.ts &&
    a.model === b.model &&
    a.cwd === b.cwd &&
    a.session === b.session &&
    a.counts.input === b.counts.input &&
    a.counts.cached === b.counts.cached &&
    a.counts.output === b.counts.output &&
    a.counts.reasoning === b.counts.reasoning &&
    a.counts.total === b.counts.total
  );
}
