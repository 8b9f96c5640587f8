/**
 * @fileoverview GitHub Copilot CLI: `<COPILOT_HOME|~/.copilot>/session-state/<session>/events.jsonl`
 * (older builds: `session-state/<session>.jsonl`). Each line is an event `{type, data, id,
 * timestamp}`; newer builds put the request's `usage {prompt_tokens, completion_tokens,
 * cache_read_input_tokens | cached_tokens, cache_creation_input_tokens}` and `model` on
 * `assistant.message` events (else the model of the last `session.model_change`). Older builds
 * record no token counts at all — `doctor` says so rather than pretend. A resumed session
 * replays earlier events, so each message is keyed by its message id.
 *
 * Wire meaning (OpenAI-style prompt counts include the cache reads): input = prompt − cache read
 * + cache creation; cached = cache read; output = completion; reasoning = 0; total = the sum.
 */
import path from 'node:path';
import { readJsonl, type LineStats } from '../jsonl.js';
import { isRecord, str } from '../json-file.js';
import { normalizeModel, parseInstant, toCount, type Counts } from '../usage.js';
import { walkFiles } from '../walk.js';
import type { AgentParser, LogFile } from './types.js';

export function copilotCounts(u: Record<string, unknown>): Counts {
  const cached = toCount(u['cache_read_input_tokens'] ?? u['cached_tokens']);
  const input = Math.max(0, toCount(u['prompt_tokens']) - cached) + toCount(u['cache_creation_input_tokens']);
  const output = toCount(u['completion_tokens']);
  return { input, cached, output, reasoning: 0, total: input + cached + output };
}

export const copilotParser: AgentParser = {
  agent: 'copilot',
  noTokenCounts:
    'Copilot CLI writes token counts only in newer builds (on assistant.message events); sessions of older builds count as nothing',
  roots: (r) => [path.join(r.copilotDir, 'session-state')],
  discover(r) {
    const root = path.join(r.copilotDir, 'session-state');
    return walkFiles(root, (name) => name.endsWith('.jsonl'), 2).map((p): LogFile => ({
      path: p,
      key: p,
      format: 'jsonl',
    }));
  },
  parse(file, start, sink) {
    const stats: LineStats = { lines: 0, malformed: 0 };
    // `session-state/<session>/events.jsonl`, or `session-state/<session>.jsonl` in older builds
    const session =
      path.basename(file.path) === 'events.jsonl'
        ? path.basename(path.dirname(file.path))
        : path.basename(file.path, '.jsonl');
    let model = isRecord(start.state) ? str(start.state['model']) : undefined;
    let cwd = isRecord(start.state) ? str(start.state['cwd']) : undefined;
    const offset = readJsonl(
      file.path,
      start.offset,
      ['"usage"', '"session.model_change"', '"session.start"'],
      (obj, lineStart) => {
        const data = isRecord(obj['data']) ? obj['data'] : {};
        if (obj['type'] === 'session.model_change') {
          model = str(data['newModel']) ?? model;
          return;
        }
        if (obj['type'] === 'session.start') {
          const context = isRecord(data['context']) ? data['context'] : {};
          cwd = str(context['cwd']) ?? cwd;
          model = str(data['selectedModel']) ?? model;
          return;
        }
        if (obj['type'] !== 'assistant.message' || !isRecord(data['usage'])) return;
        const counts = copilotCounts(data['usage']);
        if (counts.total === 0) return;
        const ts = parseInstant(obj['timestamp']);
        if (ts === undefined) {
          sink.malformed();
          return;
        }
        const id = str(data['messageId']) ?? str(obj['id']);
        sink.upsert(id !== undefined ? `copilot:${id}` : `${file.key}@${lineStart}`, {
          ts,
          source: 'copilot',
          model: normalizeModel(data['model'] ?? model),
          counts,
          cwd,
          session,
        });
      },
      stats,
    );
    sink.malformed(stats.malformed);
    return { offset, state: model !== undefined || cwd !== undefined ? { model, cwd } : null };
  },
};
