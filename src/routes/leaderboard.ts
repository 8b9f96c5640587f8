/** @fileoverview getLeaderboard, getLeaderboardProfile (anonymous or user JWT) and refreshLeaderboard (service role). */
import type { App } from '../app-types.js';
import { responses } from '../schemas/common.js';
import {
  LeaderboardProfileQuery,
  LeaderboardProfileResponse,
  LeaderboardQuery,
  LeaderboardResponse,
  RefreshLeaderboardQuery,
  RefreshLeaderboardResponse,
} from '../schemas/leaderboard.js';
import type { LeaderboardService } from '../services/leaderboard.js';
import { operation } from './operation.js';

export function registerLeaderboardRoutes(app: App, deps: { leaderboard: LeaderboardService }): void {
  const { leaderboard } = deps;
  const callerOf = (principal: { role: string; userId?: string }) =>
    principal.role === 'user' ? principal.userId : undefined;

  app.get(
    '/functions/svc-leaderboard',
    operation(
      {
        operationId: 'getLeaderboard',
        summary: 'Read a page of the leaderboard',
        description:
          'Users who are not public appear with user_id, display_name and avatar_url null. Signed-in callers also get `me`.',
        tags: ['leaderboard'],
        access: { roles: ['user'], anonymous: true },
      },
      { querystring: LeaderboardQuery, response: responses(LeaderboardResponse, 400, 401, 403) },
    ),
    async (request) => {
      const q = request.query;
      return leaderboard.page({
        period: q.period,
        metric: q.metric ?? 'all',
        limit: q.limit ?? 20,
        offset: q.offset ?? 0,
        callerId: callerOf(request.principal),
      });
    },
  );

  app.get(
    '/functions/svc-leaderboard-profile',
    operation(
      {
        operationId: 'getLeaderboardProfile',
        summary: "Read one user's leaderboard row",
        description: "Public users for anyone; the caller's own always; everyone else 403.",
        tags: ['leaderboard'],
        access: { roles: ['user'], anonymous: true },
      },
      { querystring: LeaderboardProfileQuery, response: responses(LeaderboardProfileResponse, 400, 401, 403) },
    ),
    async (request) =>
      leaderboard.profile({
        userId: request.query.user_id.toLowerCase(),
        period: request.query.period ?? 'week',
        callerId: callerOf(request.principal),
      }),
  );

  app.post(
    '/functions/svc-leaderboard-refresh',
    operation(
      {
        operationId: 'refreshLeaderboard',
        summary: 'Refresh leaderboard snapshots now',
        description:
          'All periods, or the one named. A refresh asked for while one runs waits for it and answers its result.',
        tags: ['admin'],
        access: { roles: ['service_role'] },
      },
      { querystring: RefreshLeaderboardQuery, response: responses(RefreshLeaderboardResponse, 400, 401, 403) },
    ),
    async (request) => leaderboard.refresh(request.query.period ? [request.query.period] : undefined),
  );
}
