/** @fileoverview The server's scheduled jobs with their intervals, as {@link startSchedule} takes them. */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import type { PriceService } from '../pricing/index.js';
import type { LeaderboardService } from '../services/leaderboard.js';
import type { CostRepricer } from '../services/repricing.js';
import type { PricingStore } from './pricing-store.js';
import { syncPricing } from './pricing-sync.js';
import { purgeSpentCredentials } from './purge-credentials.js';
import { DEFAULT_RETENTION_DAYS, purgeEvents } from './purge-events.js';
import type { ScheduledJob } from './schedule.js';
import { DAY_MS } from '../domain/calendar.js';

export interface JobDeps {
  db: Db;
  clock: Clock;
  leaderboard: LeaderboardService;
  prices: PriceService;
  repricer: CostRepricer;
  pricingStore: PricingStore;
  pricingSourceUrl: string;
  leaderboardRefreshSeconds: number;
}

export function serverJobs(deps: JobDeps): ScheduledJob[] {
  return [
    {
      name: 'leaderboard.refresh',
      firstRunAfterMs: 1_000,
      everyMs: deps.leaderboardRefreshSeconds * 1000,
      run: async () => {
        const result = await deps.leaderboard.refresh();
        return {
          summary: result.results.map((r) => `${r.period} ${r.rows} rows`).join(', '),
          details: { results: result.results },
        };
      },
    },
    {
      name: 'pricing.sync',
      firstRunAfterMs: 60_000,
      everyMs: DAY_MS,
      run: async () => {
        const r = await syncPricing({
          prices: deps.prices,
          store: deps.pricingStore,
          clock: deps.clock,
          sourceUrl: deps.pricingSourceUrl,
          reprice: () => deps.repricer.repriceTo(deps.prices.data),
        });
        const summary = r.updated
          ? `${r.format} data: ${r.models_seen} models seen, ${r.models_updated} updated, ${r.models_skipped} skipped; ${r.costs_repriced ?? 0} stored daily costs changed`
          : `not updated: ${r.reason ?? 'unknown reason'}`;
        return {
          summary,
          details: { updated: r.updated, models_seen: r.models_seen, models_updated: r.models_updated },
        };
      },
    },
    {
      name: 'events.retention',
      firstRunAfterMs: 5 * 60_000,
      everyMs: DAY_MS,
      run: async () => {
        const r = await purgeEvents(deps, { days: DEFAULT_RETENTION_DAYS, dryRun: false });
        return { summary: `deleted ${r.deleted} upload events before ${r.cutoff}`, details: { deleted: r.deleted } };
      },
    },
    {
      name: 'credentials.retention',
      firstRunAfterMs: 6 * 60_000,
      everyMs: DAY_MS,
      run: async () => {
        const r = await purgeSpentCredentials(deps, { days: DEFAULT_RETENTION_DAYS });
        return {
          summary: `deleted ${r.linkCodes} expired link codes, ${r.refreshTokens} spent refresh tokens and ${r.recoveryTokens} expired recovery links`,
          details: { ...r },
        };
      },
    },
  ];
}
