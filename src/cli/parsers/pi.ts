/**
 * @fileoverview pi (the pi coding agent) and OpenClaw, which runs on pi's agent core and keeps
 * the same session format:
 * - pi: `<PI_CODING_AGENT_DIR|~/.pi/agent>/sessions/<encoded cwd>/<time>_<uuid>.jsonl`
 *   (subagent files below it included);
 * - OpenClaw: `<OPENCLAW_STATE_DIR|~/.openclaw>/agents/<agent>/sessions/*.jsonl`.
 * Each line is an entry; `type: "message"` entries whose `message.role` is `assistant` carry
 * `usage {input, output, cacheRead, cacheWrite, totalTokens}` (and a cost, ignored), `model`,
 * `provider` and `timestamp` (epoch ms). Forked and resumed sessions copy earlier entries into a
 * new file, so a message is keyed by its entry id and its own timestamp and counted once.
 *
 * Wire meaning (disjoint, Anthropic-style): input = input + cacheWrite; cached = cacheRead;
 * output = output; reasoning = 0 (thinking is inside output); total = the sum.
 */
import path from 'node:path';
import { readJsonl, type LineStats } from '../jsonl.js';
import { isRecord, str } from '../json-file.js';
import { normalizeModel, parseInstant, toCount, type Counts } from '../usage.js';
import { walkFiles } from '../walk.js';
import type { AgentParser, LogFile } from './types.js';

export function piCounts(u: Record<string, unknown>): Counts {
  const input = toCount(u['input']) + toCount(u['cacheWrite']);
  const cached = toCount(u['cacheRead']);
  const output = toCount(u['output']);
  return { input, cached, output, reasoning: 0, total: input + cached + output };
}

function createPiParser(
  agent: 'pi' | 'openclaw',
  rootsOf: (r: Parameters<AgentParser['roots']>[0]) => string[],
): AgentParser {
  return {
    agent,
    roots: rootsOf,
    discover(r) {
      return rootsOf(r)
        .flatMap((root) => walkFiles(root, (name) => name.endsWith('.jsonl')))
        .map((p): LogFile => ({ path: p, key: p, format: 'jsonl' }));
    },
    parse(file, start, sink) {
      const stats: LineStats = { lines: 0, malformed: 0 };
      let cwd = isRecord(start.state) ? str(start.state['cwd']) : undefined;
      const offset = readJsonl(
        file.path,
        start.offset,
        ['"usage"', '"session"'],
        (obj, lineStart) => {
          if (obj['type'] === 'session') {
            cwd = str(obj['cwd']) ?? cwd;
            return;
          }
          const m = obj['message'];
          if (obj['type'] !== 'message' || !isRecord(m) || m['role'] !== 'assistant' || !isRecord(m['usage'])) return;
          const counts = piCounts(m['usage']);
          if (counts.total === 0) return;
          const ts = parseInstant(m['timestamp']) ?? parseInstant(obj['timestamp']);
          if (ts === undefined) {
            sink.malformed();
            return;
          }
          const id = str(obj['id']);
          sink.upsert(id !== undefined ? `${agent}:${id}:${ts}` : `${file.key}@${lineStart}`, {
            ts,
            source: agent,
            model: normalizeModel(m['model']),
            counts,
            cwd,
            session: path.basename(file.path, '.jsonl'),
          });
        },
        stats,
      );
      sink.malformed(stats.malformed);
      return { offset, state: cwd !== undefined ? { cwd } : null };
    },
  };
}

export const piParser = createPiParser('pi', (r) => [path.join(r.piDir, 'sessions')]);

export const openclawParser = createPiParser('openclaw', (r) => [path.join(r.openclawDir, 'agents')]);
