/**
 * @fileoverview Billable tokens, computed at ingest from the source's counting convention:
 * Codex-style sources report cached inside input and reasoning inside output, so input + output
 * is everything once; Claude/OpenCode-style sources report the four channels apart, so they add
 * up; any other source is trusted for its total. (The earlier system added reasoning again for
 * Codex; that double count is not copied.)
 */

import type { TokenCounts } from './token-counts.js';

const OVERLAP_SOURCES = new Set(['codex', 'every-code']);
const DISJOINT_SOURCES = new Set(['claude', 'opencode']);

export function billableTokens(source: string, counts: Readonly<Omit<TokenCounts, 'billable'>>): bigint {
  if (OVERLAP_SOURCES.has(source)) return counts.input + counts.output;
  if (DISJOINT_SOURCES.has(source)) return counts.input + counts.cached + counts.output + counts.reasoning;
  return counts.total;
}
