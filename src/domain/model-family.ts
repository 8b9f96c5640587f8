/**
 * @fileoverview Leaderboard model families (docs/interface.md, "Sharing and leaderboard"):
 * `gpt` = `gpt-*`, `o1*`…`o4*`, `openai/*`; `claude` = `claude-*`, `anthropic/*`; `other` = the
 * rest, `unknown` included. Matching is on the stored (trimmed, lower-cased) model name and is
 * case-insensitive here too. The same rules are exported as SQL LIKE patterns so snapshot
 * queries and this function can never disagree.
 */

/** A leaderboard family. */
export type ModelFamily = 'gpt' | 'claude' | 'other';

/** SQL `LIKE` patterns (lower-case, no escapes needed) per family; `other` is everything matching neither list. */
export const MODEL_FAMILY_LIKE_PATTERNS: Readonly<Record<'gpt' | 'claude', readonly string[]>> = Object.freeze({
  gpt: Object.freeze(['gpt-%', 'o1%', 'o2%', 'o3%', 'o4%', 'openai/%']),
  claude: Object.freeze(['claude-%', 'anthropic/%']),
});

const GPT_RE = /^(?:gpt-|o[1-4]|openai\/)/;
const CLAUDE_RE = /^(?:claude-|anthropic\/)/;

/** The leaderboard family of a model name (e.g. `gpt-5-codex` → gpt, `o3-mini` → gpt, `anthropic/claude-opus-4` → claude, `gemini-2.5-pro` → other). */
export function modelFamily(model: string): ModelFamily {
  const m = model.trim().toLowerCase();
  if (GPT_RE.test(m)) return 'gpt';
  if (CLAUDE_RE.test(m)) return 'claude';
  return 'other';
}
