/** @fileoverview getTeamUsage and getTeamLeaderboard (docs/teams.md): a team's usage and its members' leaderboard. */
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { responses } from '../schemas/common.js';
import { TeamLeaderboardQuery, TeamLeaderboardResponse, TeamUsageQuery, TeamUsageResponse } from '../schemas/teams.js';
import type { TeamUsageService } from '../services/teams-usage.js';
import { operation } from './operation.js';

export function registerTeamUsageRoutes(app: App, deps: { usage: TeamUsageService }): void {
  const { usage } = deps;
  app.get(
    '/functions/svc-team-usage',
    operation(
      {
        operationId: 'getTeamUsage',
        summary: "A team's usage and cost, grouped by day, member, model, source or project",
        description:
          "Exact totals of the team's members over local days in the zone. group_by=member and user_id (one member's usage) are for owners and admins (403 for members). Project rows are all-time counts without a cost.",
        tags: ['teams'],
        access: { roles: ['user'] },
      },
      { querystring: TeamUsageQuery, response: responses(TeamUsageResponse, 400, 401, 403, 404) },
    ),
    (request) => usage.usage(principalOf(request, 'user').userId, request.query),
  );
  app.get(
    '/functions/svc-team-leaderboard',
    operation(
      {
        operationId: 'getTeamLeaderboard',
        summary: "The leaderboard of a team's members",
        description:
          "The public leaderboard's shape over the team's members only, every member named (members without usage last, rank null).",
        tags: ['teams'],
        access: { roles: ['user'] },
      },
      { querystring: TeamLeaderboardQuery, response: responses(TeamLeaderboardResponse, 400, 401, 403, 404) },
    ),
    (request) => usage.leaderboard(principalOf(request, 'user').userId, request.query),
  );
}
