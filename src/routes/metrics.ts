/**
 * @fileoverview GET /metrics: the Prometheus text exposition (http/metrics.ts). Never public: the
 * bearer must be the service role key or METRICS_TOKEN (a scraper needs no admin powers). Not part
 * of the interface, so not in /openapi.json.
 */
import type { App } from '../app-types.js';
import type { Metrics } from '../http/metrics.js';
import { problems } from '../http/problem.js';
import { safeEqual } from '../security/tokens.js';

export function registerMetricsRoute(
  app: App,
  deps: { metrics: Metrics; serviceRoleKey: string; metricsToken: string | undefined },
): void {
  const readers = [deps.serviceRoleKey, ...(deps.metricsToken ? [deps.metricsToken] : [])];
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer === undefined)
      throw problems.unauthorized('A bearer token is required: the service role key or METRICS_TOKEN.');
    if (!readers.some((reader) => safeEqual(bearer, reader)))
      throw problems.forbidden('This bearer may not read the metrics.');
    const { contentType, body } = await deps.metrics.text();
    return reply.type(contentType).send(body);
  });
}
