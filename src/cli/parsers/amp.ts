/**
 * @fileoverview Amp: one JSON document per thread, `<AMP_DATA_DIR|$XDG_DATA_HOME/amp>/threads/T-*.json`,
 * rewritten in place as the thread grows. Its `usageLedger.events[]` record one inference each
 * (`timestamp`, `model`, `tokens {input, output}`, `toMessageId`); the cache counts of that
 * inference sit on the assistant message it produced (`messages[].usage.cacheReadInputTokens`,
 * `cacheCreationInputTokens`), matched by message id. A thread without a ledger falls back to
 * its messages' own usage. Every inference is keyed by thread and message (or event) id, so the
 * rewritten document is never double counted.
 *
 * Wire meaning (disjoint, Anthropic-style): input = input + cache creation; cached = cache read;
 * output; reasoning = 0; total = the sum.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isRecord, str } from '../json-file.js';
import { normalizeModel, parseInstant, toCount, type Counts } from '../usage.js';
import type { AgentParser, LogFile, RecordSink } from './types.js';

function ampCounts(input: unknown, output: unknown, cacheRead: unknown, cacheCreation: unknown): Counts {
  const i = toCount(input) + toCount(cacheCreation);
  const c = toCount(cacheRead);
  const o = toCount(output);
  return { input: i, cached: c, output: o, reasoning: 0, total: i + c + o };
}

function emitThread(doc: Record<string, unknown>, file: LogFile, sink: RecordSink): void {
  const thread = str(doc['id']) ?? path.basename(file.path, '.json');
  const messages = Array.isArray(doc['messages']) ? doc['messages'].filter(isRecord) : [];
  const usageOf = new Map<string, Record<string, unknown>>();
  for (const m of messages) {
    const id = m['messageId'] ?? m['id'];
    if ((typeof id === 'string' || typeof id === 'number') && isRecord(m['usage'])) usageOf.set(String(id), m['usage']);
  }
  const ledger =
    isRecord(doc['usageLedger']) && Array.isArray(doc['usageLedger']['events'])
      ? doc['usageLedger']['events'].filter(isRecord)
      : [];
  if (ledger.length > 0) {
    ledger.forEach((ev, i) => {
      const tokens = isRecord(ev['tokens']) ? ev['tokens'] : {};
      const to = ev['toMessageId'];
      const msgUsage = to !== undefined ? usageOf.get(String(to)) : undefined;
      const counts = ampCounts(
        tokens['input'],
        tokens['output'],
        msgUsage?.['cacheReadInputTokens'],
        msgUsage?.['cacheCreationInputTokens'],
      );
      if (counts.total === 0) return;
      const ts = parseInstant(ev['timestamp']);
      if (ts === undefined) return sink.malformed();
      const key = str(ev['id']) ?? (to !== undefined ? `m${String(to)}` : `e${i}`);
      sink.upsert(`amp:${thread}:${key}`, {
        ts,
        source: 'amp',
        model: normalizeModel(ev['model'] ?? msgUsage?.['model']),
        counts,
        session: thread,
      });
    });
    return;
  }
  for (const m of messages) {
    const u = m['usage'];
    if (m['role'] !== 'assistant' || !isRecord(u)) continue;
    const counts = ampCounts(
      u['inputTokens'],
      u['outputTokens'],
      u['cacheReadInputTokens'],
      u['cacheCreationInputTokens'],
    );
    if (counts.total === 0) continue;
    const ts = parseInstant(u['timestamp'] ?? m['timestamp'] ?? doc['created']);
    if (ts === undefined) {
      sink.malformed();
      continue;
    }
    sink.upsert(`amp:${thread}:m${String(m['messageId'] ?? m['id'] ?? ts)}`, {
      ts,
      source: 'amp',
      model: normalizeModel(u['model']),
      counts,
      session: thread,
    });
  }
}

export const ampParser: AgentParser = {
  agent: 'amp',
  roots: (r) => [path.join(r.ampDir, 'threads')],
  discover(r) {
    const dir = path.join(r.ampDir, 'threads');
    let names: string[];
    try {
      names = fs.readdirSync(dir).sort();
    } catch {
      return [];
    }
    return names
      .filter((n) => /^T-.*\.json$/.test(n))
      .map((n): LogFile => ({ path: path.join(dir, n), key: path.join(dir, n), format: 'document' }));
  },
  parse(file, _start, sink) {
    // Caught mid-rewrite: the throw keeps the cursor and what the thread counted so far, and the
    // file is read again at the next sync.
    const doc: unknown = JSON.parse(fs.readFileSync(file.path, 'utf8'));
    if (isRecord(doc)) emitThread(doc, file, sink);
    else sink.malformed();
    return { offset: 0, state: null };
  },
};
