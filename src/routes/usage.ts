/**
 * @fileoverview The analytics reads (user JWT): getUsageSummary, getUsageDaily, getUsageHourly,
 * getUsageMonthly, getUsageHeatmap, getUsageModelBreakdown, getProjectUsageSummary and
 * getUserStatus. Each route is its schema, its role and a call into the analytics service; a
 * parameter the domain rejects becomes a 400 problem naming it.
 */
import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import { problems } from '../http/problem.js';
import { isInvalidParamError } from '../domain/param-error.js';
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
} from '../schemas/usage.js';
import type { AnalyticsService } from '../services/analytics.js';
import type { UsageQuery } from '../services/analytics-bodies.js';
import { RequestTimer } from '../services/request-timer.js';
import { operation } from './operation.js';

type Handler = (service: AnalyticsService, userId: string, query: UsageQuery, timer: RequestTimer) => Promise<object>;

interface Spec {
  operationId: string;
  path: string;
  summary: string;
  querystring: TSchema;
  response: TSchema;
  run: Handler;
}

const SPECS: Spec[] = [
  { operationId: 'getUsageSummary', path: 'svc-usage-summary', summary: 'Token totals and cost for a date range', querystring: SummaryQuery, response: SummaryResponse, run: (s, u, q, t) => s.summary(u, q, t) },
  { operationId: 'getUsageDaily', path: 'svc-usage-daily', summary: 'One row per local day, zero-filled, with totals', querystring: DailyQuery, response: DailyResponse, run: (s, u, q, t) => s.daily(u, q, t) },
  { operationId: 'getUsageHourly', path: 'svc-usage-hourly', summary: 'The half-hour buckets of one local day', querystring: HourlyQuery, response: HourlyResponse, run: (s, u, q, t) => s.hourly(u, q, t) },
  { operationId: 'getUsageMonthly', path: 'svc-usage-monthly', summary: 'One row per local month, zero-filled', querystring: MonthlyQuery, response: MonthlyResponse, run: (s, u, q, t) => s.monthly(u, q, t) },
  { operationId: 'getUsageHeatmap', path: 'svc-usage-heatmap', summary: 'Activity heatmap of billable tokens per local day', querystring: HeatmapQuery, response: HeatmapResponse, run: (s, u, q, t) => s.heatmap(u, q, t) },
  { operationId: 'getUsageModelBreakdown', path: 'svc-usage-model-breakdown', summary: 'Totals and cost per source and canonical model', querystring: BreakdownQuery, response: BreakdownResponse, run: (s, u, q, t) => s.modelBreakdown(u, q, t) },
  { operationId: 'getProjectUsageSummary', path: 'svc-project-usage-summary', summary: 'All-time totals of the top projects', querystring: ProjectSummaryQuery, response: ProjectSummaryResponse, run: (s, u, q, t) => s.projectSummary(u, q, t) },
  { operationId: 'getUserStatus', path: 'svc-user-status', summary: 'Account, pro status, subscriptions and installed devices', querystring: UserStatusQuery, response: UserStatusResponse, run: (s, u, _q, t) => s.userStatus(u, t) },
];

async function answer(request: FastifyRequest, service: AnalyticsService, run: Handler): Promise<object> {
  const timer = new RequestTimer();
  const query = request.query as UsageQuery;
  try {
    const body = await run(service, principalOf(request, 'user').userId, query, timer);
    return query.debug === '1' ? { ...body, debug: timer.debug(request.id) } : body;
  } catch (error) {
    if (isInvalidParamError(error)) throw problems.invalidField(`/querystring/${error.param}`, error.message);
    throw error;
  }
}

export function registerUsageRoutes(app: App, deps: { analytics: AnalyticsService }): void {
  for (const spec of SPECS) {
    app.get(
      `/functions/${spec.path}`,
      operation(
        { operationId: spec.operationId, summary: spec.summary, tags: ['analytics'], access: { roles: ['user'] } },
        { querystring: spec.querystring, response: responses(spec.response, 400, 401, 403) },
      ),
      (request) => answer(request, deps.analytics, spec.run),
    );
  }
}
