/** @fileoverview The team pages' calls and shapes (docs/teams.md): teams, usage, leaderboard, members, invites. */
import { call, type Answer } from '../api.js';

export type Role = 'owner' | 'admin' | 'member';
// The answers' types are the server's (api/wire.ts, generated from /openapi.json).
export type TeamEntry = Answer<'svc-teams'>['teams'][number];
export type TeamUsage = Answer<'svc-team-usage'>;
export type UsageRow = TeamUsage['rows'][number];
export type UsageTotals = UsageRow['totals'];
export type Member = Answer<'svc-team-members'>['members'][number];
export type Invite = Answer<'svc-team-invites'>['invites'][number];
export type BoardEntry = Answer<'svc-team-leaderboard'>['entries'][number];

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
