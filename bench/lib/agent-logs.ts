/**
 * @fileoverview The agent-log tree bench:cli syncs: deterministic generators (a fixed-seed
 * LCG, so every run writes the same bytes) that write one agent's file or store of about the
 * asked size, with that agent's mix of line types, and the one-turn appender for the hook case.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DAY, START, text } from './agent-logs/common.js';

export { rand } from './agent-logs/common.js';
export { claudeFile, codexFile, geminiFile, kimiFile, qwenFile } from './agent-logs/jsonl-agents.js';
export { ampFile, copilotFile, droidFile, gooseDb, opencodeDb, piFile, vscodeTask } from './agent-logs/other-agents.js';

/** Append one realistic new turn to the first Claude transcript and the first live Codex rollout. */
export function appendTurns(root: string): void {
  const first = (dir: string, pred: (name: string) => boolean): string | undefined => {
    for (const f of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
      if (f.isFile() && pred(f.name)) return path.join(f.parentPath, f.name);
    return undefined;
  };
  const claude = first(path.join(root, 'claude', 'projects'), (n) => n.endsWith('.jsonl'));
  const codex = first(path.join(root, 'codex', 'sessions'), (n) => n.startsWith('rollout-'));
  const now = new Date(START + 95 * DAY).toISOString();
  if (claude !== undefined) {
    fs.appendFileSync(
      claude,
      `${JSON.stringify({ type: 'assistant', timestamp: now, requestId: 'req_bench_new', message: { id: 'msg_bench_new', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: text(800) }], usage: { input_tokens: 5, cache_read_input_tokens: 40000, cache_creation_input_tokens: 900, cache_creation: { ephemeral_5m_input_tokens: 900, ephemeral_1h_input_tokens: 0 }, output_tokens: 700 } } })}\n`,
    );
  }
  if (codex !== undefined) {
    const last = {
      input_tokens: 30000,
      cached_input_tokens: 25000,
      output_tokens: 900,
      reasoning_output_tokens: 300,
      total_tokens: 30900,
    };
    fs.appendFileSync(
      codex,
      `${JSON.stringify({ timestamp: now, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { ...last, total_tokens: 99_999_999 }, last_token_usage: last } } })}\n`,
    );
  }
}
