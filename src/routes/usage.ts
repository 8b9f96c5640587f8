/**
 * @fileoverview The analytics reads (user JWT; "usage" on the wire, docs/architecture.md,
 * "Glossary"): getUsageSummary, getUsageDaily, getUsageHourly, getUsageMonthly, getUsageHeatmap,
 * getUsageModelBreakdown, getProjectUsageSummary and getUserStatus. Each route is its schema, its
 * role and a call into the analytics service. A parameter the domain refuses on its own is answered
 * at validation (schemas/text-params.ts); one it refuses in the light of the others (`from` after
 * `to`, a range too long) is refused by the service through the domain's rules (domain/ranges.ts),
 * a 400 problem naming it. `debug=1` measures the call (services/request-timer.ts).
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { responses } from '../schemas/common.js';
import {
  BreakdownQuery,
  BreakdownResponse,
  DailyQuery,
  DailyResponse,
  HeatmapQuery,
  HeatmapResponse,
  HourlyQuery,
  HourlyResponse,
  MonthlyQuery,
  MonthlyResponse,
  ProjectSummaryQuery,
  ProjectSummaryResponse,
  SummaryQuery,
  SummaryResponse,
  UserStatusQuery,
  UserStatusResponse,
  type Debug,
} from '../schemas/usage.js';
import type { AnalyticsService } from '../services/analytics.js';
import { RequestTimer } from '../services/request-timer.js';
import { operation } from './operation.js';

/** The service's answer, with the timing block when the query asked for `debug=1`. */
async function answer<B extends object>(
  request: FastifyRequest,
  debug: '1' | undefined,
  run: (userId: string) => Promise<B>,
): Promise<B & { debug?: Debug }> {
  const userId = principalOf(request, 'user').userId;
  if (debug !== '1') return await run(userId);
  const timer = new RequestTimer();
  const body = await timer.measure(() => run(userId));
  return { ...body, debug: timer.debug(request.id) };
}

/** Route options of an analytics read: user JWT only; 400 for a parameter the domain refuses. */
function read<Q extends TObject, R extends TSchema>(operationId: string, summary: string, querystring: Q, response: R) {
  return operation(
    { operationId, summary, tags: ['analytics'], access: { roles: ['user'] } },
    { querystring, response: responses(response, 400, 401, 403) },
  );
}

export function registerUsageRoutes(app: App, deps: { analytics: AnalyticsService }): void {
  const { analytics } = deps;

  app.get(
    '/functions/svc-usage-summary',
    read('getUsageSummary', 'Token totals and cost for a date range', SummaryQuery, SummaryResponse),
    (request) => answer(request, request.query.debug, (userId) => analytics.summary(userId, request.query)),
  );
  app.get(
    '/functions/svc-usage-daily',
    read('getUsageDaily', 'One row per local day, zero-filled, with totals', DailyQuery, DailyResponse),
    (request) => answer(request, request.query.debug, (userId) => analytics.daily(userId, request.query)),
  );
  app.get(
    '/functions/svc-usage-hourly',
    read('getUsageHourly', 'The half-hour buckets of one local day', HourlyQuery, HourlyResponse),
    (request) => answer(request, request.query.debug, (userId) => analytics.hourly(userId, request.query)),
  );
  app.get(
    '/functions/svc-usage-monthly',
    read('getUsageMonthly', 'One row per local month, zero-filled', MonthlyQuery, MonthlyResponse),
    (request) => answer(request, request.query.debug, (userId) => analytics.monthly(userId, request.query)),
  );
  app.get(
    '/functions/svc-usage-heatmap',
    read('getUsageHeatmap', 'Activity heatmap of billable tokens per local day', HeatmapQuery, HeatmapResponse),
    (request) => answer(request, request.query.debug, (userId) => analytics.heatmap(userId, request.query)),
  );
  app.get(
    '/functions/svc-usage-model-breakdown',
    read('getUsageModelBreakdown', 'Totals and cost per source and canonical model', BreakdownQuery, BreakdownResponse),
    (request) => answer(request, request.query.debug, (userId) => analytics.modelBreakdown(userId, request.query)),
  );
  app.get(
    '/functions/svc-project-usage-summary',
    read('getProjectUsageSummary', 'All-time totals of the top projects', ProjectSummaryQuery, ProjectSummaryResponse),
    (request) => answer(request, request.query.debug, (userId) => analytics.projectSummary(userId, request.query)),
  );
  app.get(
    '/functions/svc-user-status',
    read(
      'getUserStatus',
      'Account, pro status, subscriptions and installed devices',
      UserStatusQuery,
      UserStatusResponse,
    ),
    (request) => answer(request, request.query.debug, (userId) => analytics.userStatus(userId)),
  );
}
