/**
 * @fileoverview A leaderboard row on the wire (getLeaderboard, getLeaderboardProfile, the team
 * leaderboard): figures as decimal strings, costs as the interface's money fields, and a user who
 * is not public without id, name or avatar.
 */
import type { EntryRow, PublicIdentity } from '../db/queries/leaderboard-reads.js';
import { formatMicros } from '../pricing/index.js';
import type { LeaderboardEntry } from '../schemas/leaderboard.js';
import { publicAvatarUrl, publicDisplayName } from './public-profile.js';

export type LeaderboardEntryWire = LeaderboardEntry;

/** An entry's stored costs in the period, as the interface's money fields (USD, 6 places). */
export function costsWire(e: { totalCost: bigint; gptCost: bigint; claudeCost: bigint; otherCost: bigint }) {
  return {
    total_cost_usd: formatMicros(e.totalCost),
    gpt_cost_usd: formatMicros(e.gptCost),
    claude_cost_usd: formatMicros(e.claudeCost),
    other_cost_usd: formatMicros(e.otherCost),
  };
}

export function wireEntry(e: EntryRow, identity: PublicIdentity | undefined): LeaderboardEntryWire {
  const pub = identity?.isPublic ?? false;
  return {
    rank: e.rank,
    user_id: pub ? e.userId : null,
    display_name: pub ? publicDisplayName(identity?.displayName) : null,
    avatar_url: pub ? publicAvatarUrl(identity?.avatarUrl) : null,
    total_tokens: e.total.toString(),
    gpt_tokens: e.gpt.toString(),
    claude_tokens: e.claude.toString(),
    other_tokens: e.other.toString(),
    ...costsWire(e),
    is_public: pub,
  };
}

/** The figures of a user without usage in the period. */
export const ZERO = {
  rank: null,
  total: 0n,
  gpt: 0n,
  claude: 0n,
  other: 0n,
  totalCost: 0n,
  gptCost: 0n,
  claudeCost: 0n,
  otherCost: 0n,
};
