/**
 * @fileoverview What budgets and webhooks ask about teams, as an interface the composition root
 * passes in: a user's role in a team and a team's members. `noTeams` answers that nobody is in any
 * team (team scope then answers 404, as to an outsider) until the teams code provides the real one.
 */
export type TeamRole = 'owner' | 'admin' | 'member';

export interface TeamAccess {
  roleIn(teamId: string, userId: string): Promise<TeamRole | null>;
  memberIds(teamId: string): Promise<string[]>;
}

export const noTeams: TeamAccess = {
  roleIn: async () => null,
  memberIds: async () => [],
};

/** True for the roles that manage a team's budgets and webhooks. */
export function managesTeam(role: TeamRole | null): boolean {
  return role === 'owner' || role === 'admin';
}
