/**
 * @fileoverview Pricing modes: how a source's four counts relate to each other, decided by the
 * source's semantics (never guessed per row).
 *
 * - `overlap` (Codex-style: `codex`, `every-code`): cached ⊂ input and reasoning ⊂ output.
 * - `add` (Claude/OpenCode-style and every other source): the four counts are disjoint.
 */

/** How one source's counts nest. */
export type PricingMode = 'overlap' | 'add';

/** The mode reported for an answer: the single mode of its rows, or `mixed`. */
export type PricingModeSummary = PricingMode | 'mixed';

/** Sources whose input already contains cached input and whose output already contains reasoning. */
export const OVERLAP_SOURCES: readonly string[] = Object.freeze(['codex', 'every-code']);

/** The pricing mode of a source: `overlap` for Codex-style sources, `add` for all others (case-insensitive). */
export function pricingModeForSource(source: string): PricingMode {
  return OVERLAP_SOURCES.includes(source.trim().toLowerCase()) ? 'overlap' : 'add';
}

/** Combines the modes seen in one answer: the common mode, `mixed` when they differ, `add` when there were none. */
export function combinePricingModes(modes: Iterable<PricingMode>): PricingModeSummary {
  let seen: PricingMode | null = null;
  for (const m of modes) {
    if (seen === null) seen = m;
    else if (seen !== m) return 'mixed';
  }
  return seen ?? 'add';
}
