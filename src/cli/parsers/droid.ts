/**
 * @fileoverview Factory Droid: `<FACTORY_HOME|~/.factory>/sessions/<encoded cwd>/<uuid>.settings.json`
 * beside each session's JSONL. Droid keeps only one running total per session
 * (`tokenUsage {inputTokens, outputTokens, cacheCreationTokens, cacheReadTokens, thinkingTokens}`)
 * and no per-turn times, so each increase is filed at the time the file last changed (its mtime;
 * running-totals.ts): the first read puts the session's total at its last activity, later syncs
 * add what grew since, in the half-hour it grew. The model name (e.g.
 * `custom:Claude-Opus-4.5-Thinking-[Anthropic]-0`) is reduced to the model's own name.
 *
 * Wire meaning (disjoint): input = inputTokens + cacheCreationTokens; cached = cacheReadTokens;
 * output = outputTokens; reasoning = thinkingTokens; total = the sum.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isRecord, str } from '../json-file.js';
import { grow, segmentsOf } from '../running-totals.js';
import { normalizeModel, toCount, unpackCounts, type Counts } from '../usage.js';
import { walkFiles } from '../walk.js';
import type { AgentParser, LogFile } from './types.js';

export function droidModel(raw: unknown): string {
  const s = (str(raw) ?? '')
    .replace(/^custom:/i, '')
    .replace(/-?\[[^\]]*\]/g, '')
    .replace(/-\d+$/, '');
  return normalizeModel(s.replace(/(\d)\.(\d)/g, '$1-$2'));
}

function droidCounts(t: Record<string, unknown>): Counts {
  const input = toCount(t['inputTokens']) + toCount(t['cacheCreationTokens']);
  const cached = toCount(t['cacheReadTokens']);
  const output = toCount(t['outputTokens']);
  const reasoning = toCount(t['thinkingTokens']);
  return { input, cached, output, reasoning, total: input + cached + output + reasoning };
}

export const droidParser: AgentParser = {
  agent: 'droid',
  roots: (r) => [path.join(r.factoryDir, 'sessions')],
  discover(r) {
    return walkFiles(path.join(r.factoryDir, 'sessions'), (name) => name.endsWith('.settings.json')).map(
      // settings files are rewritten by rename: keep the remembered segments across a new inode
      (p): LogFile => ({ path: p, key: p, format: 'document', keepState: true }),
    );
  },
  parse(file, start, sink) {
    // Unreadable or caught mid-rewrite: the throw keeps the cursor and this file's earlier
    // contribution, and the file is read again at the next sync.
    const doc: unknown = JSON.parse(fs.readFileSync(file.path, 'utf8'));
    const mtime = fs.statSync(file.path).mtimeMs;
    if (!isRecord(doc) || !isRecord(doc['tokenUsage'])) return { offset: 0, state: null };
    const current = droidCounts(doc['tokenUsage']);
    const model = droidModel(doc['model']);
    const segments = grow(isRecord(start.state) ? segmentsOf(start.state['segments']) : [], current, mtime);
    const session = path.basename(file.path, '.settings.json');
    // Every segment is reported on each read: the engine takes back this file's earlier contribution first.
    for (const s of segments)
      sink.add({ ts: s.ts, source: 'droid', model, counts: unpackCounts(s.c), cwd: str(doc['cwd']), session });
    return { offset: 0, state: segments.length > 0 ? { segments, session } : null };
  },
};
