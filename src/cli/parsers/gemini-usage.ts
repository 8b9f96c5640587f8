/**
 * @fileoverview Shared wire mapping for the Gemini family (Gemini CLI and its fork Qwen Code).
 * Their prompt count already includes cached tokens; the wire makes the channels disjoint, like
 * every source except Codex (the server prices all non-Codex sources as disjoint): input =
 * prompt − cached + tool-use prompt; cached = cached; output = candidates; reasoning =
 * thoughts. total = max(reported total, the sum of the four), so it covers every channel. Both
 * sources are billed on total_tokens by the server.
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
  const prompt = toCount(raw.input);
  const cached = Math.min(toCount(raw.cached), prompt);
  const input = prompt - cached + toCount(raw.tool);
  const output = toCount(raw.output);
  const reasoning = toCount(raw.thoughts);
  const total = Math.max(toCount(raw.total), input + cached + output + reasoning);
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
