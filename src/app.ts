/**
 * @fileoverview The composition root: `createApp` wires configuration, database, clock and logger
 * into services and routes, in one readable sequence. Nothing else constructs these parts.
 */
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { App } from './app-types.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { findActiveDeviceToken } from './db/queries/devices.js';
import { registerAccessControl } from './http/access.js';
import { registerBodyParsing } from './http/body-parsing.js';
import { registerErrorHandling } from './http/error-handler.js';
import { PrincipalResolver } from './http/principal.js';
import { InflightGate, localLimiters, type LimitName, type RateLimiter } from './http/rate-limit.js';
import { lazyChildLoggers } from './http/lazy-logger.js';
import { OneLinePerRequest } from './http/request-log.js';
import { cachedLookup, TtlCache } from './http/ttl-cache.js';
import { validatorCompiler } from './http/validation.js';
import { createIngestWriter } from './ingest/store.js';
import { CostRepricer } from './services/repricing.js';
import { serverJobs } from './jobs/jobs.js';
import { createPricingStore, type PricingStore } from './jobs/pricing-store.js';
import { restoreStoredPricing } from './jobs/pricing-sync.js';
import { startSchedule } from './jobs/schedule.js';
import { createLogger } from './logger.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerDeviceRoutes } from './routes/devices.js';
import { registerDiagnosticsRoutes } from './routes/diagnostics.js';
import { registerDiscoveryRoutes } from './routes/discovery.js';
import { registerDiscoveryDocRoutes } from './routes/discovery-docs.js';
import { registerIngestRoutes } from './routes/ingest.js';
import { registerLeaderboardRoutes } from './routes/leaderboard.js';
import { registerSharingRoutes } from './routes/sharing.js';
import { registerUsageRoutes } from './routes/usage.js';
import { SECURITY_SCHEMES } from './routes/operation.js';
import { ProblemSchema } from './schemas/common.js';
import { JwtService } from './security/jwt.js';
import { resolveSecrets, type Secrets } from './security/secrets.js';
import { hmac } from './security/tokens.js';
import { createPriceService } from './pricing/index.js';
import { noPeers, type Peers } from './process/peers.js';
import { AccountService } from './services/accounts.js';
import { AnalyticsService } from './services/analytics.js';
import { LeaderboardService, type LeaderboardHooks } from './services/leaderboard.js';
import { OnboardingService } from './services/onboarding.js';
import { SharingService } from './services/sharing.js';

export const API_VERSION = '0.6.4';

export interface AppDeps {
  config: Config;
  db: Db;
  clock?: Clock;
  logger?: Logger;
  /** Test seams (e.g. holding a leaderboard refresh open). */
  hooks?: { leaderboard?: LeaderboardHooks };
  /** The other processes of a multi-process server (none by default). */
  peers?: Peers;
  /** Where the rate limits keep their buckets (this process's memory by default). */
  limiters?: (name: LimitName) => RateLimiter;
}

export interface TokentallyApp {
  app: App;
  secrets: Secrets;
  /** Closes the HTTP server and the database. */
  close(): Promise<void>;
}

export async function createApp(deps: AppDeps): Promise<TokentallyApp> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger(config.logLevel);

  await migrateToLatest(db);
  const secrets = await resolveSecrets(config, db, clock.now());

  const app: App = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new OneLinePerRequest(logger),
    childLoggerFactory: lazyChildLoggers,
    bodyLimit: config.limits.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);

  // Services.
  const jwt = new JwtService(
    secrets.jwtSecret,
    config.auth.accessTokenTtlSeconds,
    config.auth.jwksUrl ? { jwksUrl: config.auth.jwksUrl, issuer: config.auth.issuer, audience: config.auth.audience } : undefined,
  );
  const accounts = new AccountService(db, clock, jwt, {
    scryptCost: config.auth.scryptCost,
    refreshTokenTtlMs: config.auth.refreshTokenTtlSeconds * 1000,
  });
  const onboarding = new OnboardingService(db, clock, hmac(secrets.jwtSecret, 'tokentally:link-code-key'), config.linkCodeTtlSeconds * 1000);
  const sharing = new SharingService(db, clock, hmac(secrets.jwtSecret, 'tokentally:share-token-key'));
  // One price service per process (the price data is process-wide); syncPricing replaces its data.
  const prices = createPriceService();
  const analytics = new AnalyticsService({ db, clock, prices, syncMinIntervalMinutes: config.syncMinIntervalMinutes });
  const repricer = new CostRepricer({ db, prices, clock });
  const resolver = new PrincipalResolver(secrets.serviceRoleKey, jwt, {
    // Device tokens are looked up on every upload; a revoked token stops working within 10 s.
    findDeviceToken: cachedLookup(new TtlCache<{ userId: string; deviceId: string }>(clock, 10_000, 50_000), (hash) =>
      findActiveDeviceToken(db.kysely, hash),
    ),
    findShareToken: (hash) => sharing.findShareToken(hash),
    userForExternalSubject: (issuer, sub, email) => accounts.userForExternalSubject(issuer, sub, email),
  });

  // Cross-cutting HTTP behaviour. Access and body rules attach themselves to each route as it is
  // registered (onRoute), so they are installed before any plugin or route.
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = methodsByPath.get(route.url) ?? new Set<string>();
    for (const m of methods) if (m !== 'HEAD' && m !== 'OPTIONS') set.add(m);
    methodsByPath.set(route.url, set);
  });
  registerErrorHandling(app, (path) => [...(methodsByPath.get(path) ?? [])]);
  registerBodyParsing(app);
  registerAccessControl(app, resolver, clock);
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'apikey', 'X-Client-Info', 'X-Supabase-Api-Version'],
    exposedHeaders: ['Retry-After'],
    maxAge: 86_400,
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tokentally API',
        version: API_VERSION,
        description: 'Token usage tracking for AI coding agents: ingest, analytics, sharing and admin.',
      },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // Shared schemas keep their $id as their component name (e.g. #/components/schemas/Problem).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  app.addSchema(ProblemSchema);

  // Routes.
  const { limits } = config;
  const limiterFor = deps.limiters ?? localLimiters(clock, limits);
  registerAuthRoutes(app, { accounts, limiter: limiterFor('auth') });
  registerDeviceRoutes(app, { onboarding, exchangeLimiter: limiterFor('exchange') });
  registerIngestRoutes(app, {
    db,
    clock,
    writer: createIngestWriter(db, (model, day) => prices.priceOn(model, day).rates),
    limiter: limiterFor('ingest'),
    inflight: new InflightGate(limits.ingestMaxInflight),
    maxBuckets: limits.maxBucketsPerUpload,
    syncMinIntervalMinutes: config.syncMinIntervalMinutes,
  });
  registerDiagnosticsRoutes(app, { db, anonKey: secrets.anonKey });
  registerSharingRoutes(app, { sharing });
  registerUsageRoutes(app, { analytics });
  const leaderboard = new LeaderboardService(db, clock, deps.hooks?.leaderboard);
  registerLeaderboardRoutes(app, { leaderboard });
  const keptPricing = createPricingStore(db, config.dataDir);
  logger.info(`pricing: ${await restoreStoredPricing({ prices, store: keptPricing })}`);
  // Price data lives in each process's memory: a switch kept by one process is loaded by the others.
  const peers = deps.peers ?? noPeers;
  const pricingStore: PricingStore = {
    ...keptPricing,
    save: async (kept) => {
      await keptPricing.save(kept);
      peers.tell({ kind: 'prices-changed' });
    },
  };
  const stopListening = peers.listen(() => {
    void restoreStoredPricing({ prices, store: keptPricing }).then((what) => logger.info(`pricing: another server process switched prices; ${what}`));
  });
  // Stored daily costs follow the price data in force (a new package version, kept synced data, a fresh migration).
  const repriced = await repricer.ensureCurrent();
  if (repriced.repriced) logger.info(`pricing: repriced stored daily costs (${repriced.rows} rows read, ${repriced.changed} changed, ${repriced.ms} ms)`);
  registerAdminRoutes(app, { db, clock, prices, repricer, pricingStore, pricingSourceUrl: config.pricingSourceUrl });
  registerDiscoveryRoutes(app);
  registerDiscoveryDocRoutes(app);

  await app.ready();
  // Scheduled jobs (leaderboard refresh, pricing sync, event retention); off in tests.
  const schedule = config.jobsEnabled
    ? startSchedule(
        serverJobs({ db, clock, leaderboard, prices, repricer, pricingStore, pricingSourceUrl: config.pricingSourceUrl, leaderboardRefreshSeconds: config.leaderboardRefreshSeconds }),
        logger,
      )
    : undefined;
  let closed = false;
  return {
    app,
    secrets,
    close: async () => {
      if (closed) return;
      closed = true;
      stopListening();
      await schedule?.stop();
      await app.close();
      await db.close();
    },
  };
}
