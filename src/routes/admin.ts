/** @fileoverview purgeEvents and syncPricing: 403 to every caller but the service role key. */
import type { App } from '../app-types.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import type { PricingStore } from '../jobs/pricing-store.js';
import { syncPricing } from '../jobs/pricing-sync.js';
import { DEFAULT_RETENTION_DAYS, purgeEvents } from '../jobs/purge-events.js';
import type { PriceService } from '../pricing/index.js';
import type { CostRepricer } from '../services/repricing.js';
import { responses } from '../schemas/common.js';
import { PricingSyncResponse, PurgeEventsQuery, PurgeEventsResponse } from '../schemas/admin.js';
import { operation } from './operation.js';

export interface AdminDeps {
  db: Db;
  clock: Clock;
  prices: PriceService;
  repricer: CostRepricer;
  pricingStore: PricingStore;
  pricingSourceUrl: string;
}

const SERVICE_ONLY = { roles: ['service_role'], forbidUnlessRole: true } as const;

export function registerAdminRoutes(app: App, deps: AdminDeps): void {
  app.post(
    '/functions/svc-events-retention',
    operation(
      {
        operationId: 'purgeEvents',
        summary: 'Delete per-upload audit records older than a cutoff',
        description: 'Usage is never purged. `dry_run=1` only counts.',
        tags: ['admin'],
        access: SERVICE_ONLY,
      },
      { querystring: PurgeEventsQuery, response: responses(PurgeEventsResponse, 400, 403) },
    ),
    async (request) => {
      const dryRun = request.query.dry_run === '1' || request.query.dry_run === 'true';
      return purgeEvents(deps, { days: request.query.days ?? DEFAULT_RETENTION_DAYS, dryRun });
    },
  );

  app.post(
    '/functions/svc-pricing-sync',
    operation(
      {
        operationId: 'syncPricing',
        summary: 'Fetch and switch to newer model prices',
        description:
          'Loads PRICING_SOURCE_URL (genai-prices data or an OpenRouter /models answer). On an unreachable or invalid source the current prices stay and the answer (still 200) says why.',
        tags: ['admin'],
        access: SERVICE_ONLY,
      },
      { response: responses(PricingSyncResponse, 403) },
    ),
    async () =>
      syncPricing({
        prices: deps.prices,
        store: deps.pricingStore,
        clock: deps.clock,
        sourceUrl: deps.pricingSourceUrl,
        reprice: () => deps.repricer.repriceTo(deps.prices.data),
      }),
  );
}
