/**
 * @fileoverview Shared wire mapping for the Gemini family (Gemini CLI and its fork Qwen Code).
 * Their input already includes cached tokens, so the wire keeps that (cached ⊂ input, as for
 * Codex); thoughts are reported beside output as reasoning (disjoint); tool-use prompt tokens
 * are input. total = max(reported total, input + output + reasoning), so it covers every
 * channel. Both sources are billed on total_tokens by the server.
 */
import { toCount, type Counts } from '../usage.js';

export function geminiFamilyCounts(raw: {
  input: unknown;
  cached: unknown;
  output: unknown;
  thoughts: unknown;
  tool: unknown;
  total: unknown;
}): Counts {
  const input = toCount(raw.input) + toCount(raw.tool);
  const cached = Math.min(toCount(raw.cached), input);
  const output = toCount(raw.output);
  const reasoning = toCount(raw.thoughts);
  const total = Math.max(toCount(raw.total), input + output + reasoning);
  return { input, cached, output, reasoning, total };
}

/** From a raw Gemini API `usageMetadata` object. */
export function fromUsageMetadata(u: Record<string, unknown>): Counts {
  return geminiFamilyCounts({
    input: u['promptTokenCount'],
    cached: u['cachedContentTokenCount'],
    output: u['candidatesTokenCount'],
    thoughts: u['thoughtsTokenCount'],
    tool: u['toolUsePromptTokenCount'],
    total: u['totalTokenCount'],
  });
}
