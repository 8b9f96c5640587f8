/**
 * @fileoverview What budgets and webhooks ask about teams, as an interface the composition root
 * passes in (app-teams.ts answers it from the teams tables): a user's role in a team, a team's
 * members, and a user's teams.
 */
export type TeamRole = 'owner' | 'admin' | 'member';

export interface TeamAccess {
  roleIn(teamId: string, userId: string): Promise<TeamRole | null>;
  memberIds(teamId: string): Promise<string[]>;
  /** The teams the user is a member of. */
  teamsOf(userId: string): Promise<string[]>;
}

/** True for the roles that manage a team's budgets and webhooks. */
export function managesTeam(role: TeamRole | null): boolean {
  return role === 'owner' || role === 'admin';
}
