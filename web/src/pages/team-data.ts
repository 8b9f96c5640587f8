/** @fileoverview The team pages' calls and shapes (docs/teams.md): teams, usage, leaderboard, members, invites. */
import { call } from '../api.js';

export type Role = 'owner' | 'admin' | 'member';
export interface TeamEntry {
  id: string;
  name: string;
  slug: string;
  role: Role;
  members: number;
}
export interface UsageTotals {
  total_tokens: string;
  billable_total_tokens: string;
  input_tokens: string;
  cached_input_tokens: string;
  output_tokens: string;
  reasoning_output_tokens: string;
  total_cost_usd?: string;
}
export interface UsageRow {
  key: string;
  label?: string;
  totals: UsageTotals;
  last_upload_at?: string | null;
}
export interface TeamUsage {
  from: string;
  to: string;
  tz: string;
  totals: UsageTotals & { total_cost_usd: string };
  rows: UsageRow[];
}
export interface Member {
  user_id: string;
  display_name: string | null;
  role: Role;
  joined_at: string;
  email?: string | null;
  last_upload_at?: string | null;
}
export interface Invite {
  id: string;
  role: Role;
  email: string | null;
  max_uses: number;
  uses: number;
  expires_at: string;
  state: string;
}
export interface BoardEntry {
  rank: number | null;
  user_id: string;
  display_name: string | null;
  total_tokens: string;
  gpt_tokens: string;
  claude_tokens: string;
  other_tokens: string;
  total_cost_usd: string;
}

export const canManage = (role: Role | undefined): boolean => role === 'owner' || role === 'admin';

export function loadTeams(signal: AbortSignal) {
  return call<{ teams: TeamEntry[] }>('svc-teams', { signal });
}

export function loadUsage(
  q: {
    team: string;
    from: string;
    to: string;
    tz: string;
    group: string;
    member?: string | null;
    source?: string;
    model?: string;
  },
  signal: AbortSignal,
) {
  const { team, from, to, tz, group, member, source, model } = q;
  return call<TeamUsage>('svc-team-usage', {
    signal,
    params: { team_id: team, from, to, tz, group_by: group, user_id: member, source, model },
  });
}

export function post<T>(op: string, body: Record<string, unknown>): Promise<T> {
  return call<T>(op, { method: 'POST', body });
}
