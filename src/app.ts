/**
 * @fileoverview The composition root: `createApp` wires configuration, database, clock and logger
 * into services and routes, in one readable sequence. Nothing else constructs these parts.
 */
import type { Logger } from 'pino';
import type { App } from './app-types.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { findActiveDeviceToken } from './db/queries/devices.js';
import { liveSessionOwner, userIdExists } from './db/queries/users.js';
import { registerAccessControl } from './http/access.js';
import { registerBodyParsing } from './http/body-parsing.js';
import { registerConnectionKeeping } from './http/connection.js';
import { createFastify } from './http/server.js';
import { registerHttpPlugins } from './http/plugins.js';
import { registerErrorHandling } from './http/error-handler.js';
import { PrincipalResolver } from './http/principal.js';
import { InflightGate, localLimiters, type LimitName, type RateLimiter } from './http/rate-limit.js';
import { Metrics } from './http/metrics.js';
import { CredentialCaches } from './http/credential-caches.js';
import { createIngestWriter } from './ingest/store.js';
import { registerOtlpReceiver } from './app-otlp.js';
import { CostRepricer, type RepricingHooks } from './services/repricing.js';
import { PriceBook } from './services/price-book.js';
import { SsoService } from './services/sso.js';
import { serverJobs } from './jobs/jobs.js';
import { databaseJobClaims } from './jobs/claims.js';
import { createPricingStore, type PricingStore } from './jobs/pricing-store.js';
import { restoreStoredPricing } from './jobs/pricing-sync.js';
import { startSchedule } from './jobs/schedule.js';
import { createLogger } from './logger.js';
import { registerAccountRoutes } from './routes/account.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerApiTokenRoutes } from './routes/api-tokens.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerDashboardRoutes } from './routes/dashboard.js';
import { registerCliPackageRoutes } from './routes/cli-package.js';
import { packageInfo } from './package-info.js';
import { registerBadgeRoutes } from './routes/badges.js';
import { registerDeviceRoutes } from './routes/devices.js';
import { registerOnboardingRoutes } from './routes/onboarding.js';
import { registerDiagnosticsRoutes } from './routes/diagnostics.js';
import { registerDiscoveryRoutes } from './routes/discovery.js';
import { registerDiscoveryDocRoutes } from './routes/discovery-docs.js';
import { registerIngestRoutes } from './routes/ingest.js';
import { registerLeaderboardRoutes } from './routes/leaderboard.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerMcpRoutes } from './routes/mcp.js';
import { McpEndpoint } from './mcp/server.js';
import { budgetList } from './services/budget-wire.js';
import { registerSharingRoutes } from './routes/sharing.js';
import { registerProfileRoutes } from './routes/profile.js';
import { registerUsageRoutes } from './routes/usage.js';
import { smtpMailer } from './mail/mailer.js';
import { registerTeams, teamAccess } from './app-teams.js';
import { SECURITY_SCHEMES } from './routes/operation.js';
import { ProblemSchema } from './schemas/common.js';
import { JwtService } from './security/jwt.js';
import { externalJwt, leaderboardFreshness, recoveryService } from './app-options.js';
import { createNotifications, type Notifications } from './app-notifications.js';
import { restrictDataDir } from './security/data-dir.js';
import { resolveSecrets, type Secrets } from './security/secrets.js';
import { hmac } from './security/tokens.js';
import { createPriceService } from './pricing/index.js';
import { noPeers, type Peers } from './process/peers.js';
import { AccountDeletionService } from './services/account-deletion.js';
import { AccountService } from './services/accounts.js';
import { ApiTokenService } from './services/api-tokens.js';
import { AnalyticsService } from './services/analytics.js';
import { DeviceService } from './services/devices.js';
import { BadgeService } from './services/badges.js';
import { LeaderboardService, type LeaderboardHooks } from './services/leaderboard.js';
import type { LeaderboardFreshness } from './services/leaderboard-freshness.js';
import { OnboardingService } from './services/onboarding.js';
import { InstanceAdminService } from './services/instance-admin.js';
import { SignupPolicy } from './services/signup-policy.js';
import { registerInstanceAdminRoutes } from './routes/instance-admin.js';
import type { RecoveryService } from './services/recovery.js';
import { SharingService } from './services/sharing.js';
import { ProfilePageService } from './services/profile-page.js';

export { API_VERSION } from './http/plugins.js';

export interface AppDeps {
  config: Config;
  db: Db;
  clock?: Clock;
  logger?: Logger;
  /** Test seams (e.g. holding a leaderboard refresh or a repricing open). */
  hooks?: {
    leaderboard?: LeaderboardHooks;
    repricing?: RepricingHooks;
    /** Awaited after a device token's database lookup, before its answer may be cached. */
    deviceTokenLooked?: () => Promise<void>;
  };
  /** The other processes of a multi-process server (none by default). */
  peers?: Peers;
  /** Where the rate limits keep their buckets (this process's memory by default). */
  limiters?: (name: LimitName) => RateLimiter;
}

export interface TokentallyApp {
  app: App;
  secrets: Secrets;
  /** The refresh-after-upload trigger, when LEADERBOARD_FRESH_SECONDS > 0 (tests await its idle()). */
  leaderboardFreshness: LeaderboardFreshness | undefined;
  /** The repricing of stored costs in the background (tests await its idle(); resume() takes over one whose holder stopped). */
  repricing: Pick<CostRepricer, 'idle' | 'resume'>;
  /** Password recovery links (the admin command makes them; tests await idle() for the mails). */
  recovery: Pick<RecoveryService, 'idle' | 'createRecoveryLink'>;
  /** Budgets, alerts and webhooks (tests await alerts.idle() and call delivery.deliverDue()). */
  notifications: Notifications;
  /** Team invite mails under way (tests await idle()). */
  teamInvites: { idle(): Promise<void> };
  /** Closes the HTTP server and the database. */
  close(): Promise<void>;
}

export async function createApp(deps: AppDeps): Promise<TokentallyApp> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger(config.logLevel);

  const notNarrowed = restrictDataDir(config.dataDir);
  if (notNarrowed) logger.warn({ dataDir: config.dataDir }, `DATA_DIR is open to other users (${notNarrowed})`);
  await migrateToLatest(db);
  const secrets = await resolveSecrets(config, db, clock.now());

  const app = createFastify(config, logger);

  // Services. What one process must tell the others (prices switched, an account deleted) goes through `peers`.
  const peers = deps.peers ?? noPeers;
  const jwt = new JwtService(secrets.jwtSecret, config.auth.accessTokenTtlSeconds, externalJwt(config.auth));
  // Remembered credentials (http/credential-caches.ts): what ends one here forgets it at once, and
  // tells the other processes (an ended session's access tokens stop within 5 s there).
  const credentials = new CredentialCaches(clock);
  const policy = new SignupPolicy(db, clock, config.signup, config.publicUrl);
  const accounts = new AccountService(db, clock, jwt, {
    admit: (email, inviteToken) => policy.admit(email, inviteToken),
    scryptCost: config.auth.scryptCost,
    refreshTokenTtlMs: config.auth.refreshTokenTtlSeconds * 1000,
    refreshKey: hmac(secrets.jwtSecret, 'tokentally:refresh-token-key'),
    onSessionsEnded: () => credentials.sessionsEnded(),
  });
  const onboarding = new OnboardingService(db, clock, hmac(secrets.jwtSecret, 'tokentally:link-code-key'), {
    linkCodeTtlMs: config.linkCodeTtlSeconds * 1000,
    maxDevicesPerUser: config.limits.maxDevicesPerUser,
  });
  const sharing = new SharingService(db, clock, hmac(secrets.jwtSecret, 'tokentally:share-token-key'));
  // This process's price data (bundled, or what syncPricing switched to), which the stored costs are
  // repriced to; answers and uploads price with the data the stored costs are priced by (`book`).
  const prices = createPriceService();
  const book = new PriceBook(db, prices);
  const { syncMinIntervalMinutes } = config;
  const maxStoredBuckets = config.limits.maxStoredBucketsPerUser;
  const analytics = new AnalyticsService({ db, clock, prices: book, syncMinIntervalMinutes, maxStoredBuckets });
  const repricer = new CostRepricer({
    db,
    book,
    clock,
    hooks: deps.hooks?.repricing,
    onSwitched: (r) => {
      logger.info(
        `pricing: repriced stored daily costs (${r.rows} rows read, ${r.changed} changed, ${r.ms} ms); answers use ${r.fingerprint}`,
      );
      peers.tell({ kind: 'prices-changed' });
    },
    onError: (error) =>
      logger.error({ err: error }, 'pricing: repricing stored daily costs failed; it is tried again later'),
  });
  // Revoking a device or an API token forgets it here and in the other server processes (a
  // revocation by another program on the database, e.g. the admin command line, shows within 10 s).
  const devices = new DeviceService(db, clock, (deviceId) => {
    credentials.forgetDevice(deviceId);
    peers.tell({ kind: 'device-revoked', deviceId });
  });
  const apiTokens = new ApiTokenService(db, clock, {
    maxPerUser: config.limits.maxApiTokensPerUser,
    onRevoked: (tokenId) => {
      credentials.forgetApiToken(tokenId);
      peers.tell({ kind: 'api-token-revoked', tokenId });
    },
  });
  const resolver = new PrincipalResolver(
    secrets.serviceRoleKey,
    jwt,
    credentials.store({
      findDeviceToken: async (hash) => {
        const found = await findActiveDeviceToken(db.kysely, hash);
        await deps.hooks?.deviceTokenLooked?.();
        return found;
      },
      findShareToken: (hash) => sharing.findShareToken(hash),
      findApiToken: (hash) => apiTokens.find(hash),
      apiTokenUsed: (tokenId, nowMs) => apiTokens.used(tokenId, nowMs),
      userExists: (id) => userIdExists(db.kysely, id),
      liveSessionOwner: (sessionId) => liveSessionOwner(db.kysely, sessionId, clock.now()),
      userForExternalSubject: (issuer, sub, email) => accounts.userForExternalSubject(issuer, sub, email),
    }),
  );

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
  const metrics = new Metrics();
  metrics.register(app);
  registerBodyParsing(app);
  registerConnectionKeeping(app);
  registerAccessControl(app, resolver, clock);
  await registerHttpPlugins(app, { securitySchemes: SECURITY_SCHEMES, sharedSchemas: [ProblemSchema] });

  // Routes.
  const { limits } = config;
  const limiterFor = deps.limiters ?? localLimiters(clock, limits);
  // One SMTP connection pool for every mail the server sends (recovery, team invites, budget alerts).
  const mailer = config.mail && smtpMailer(config.mail);
  const recovery = recoveryService(db, clock, accounts, config, logger, mailer);
  const recoverLimiters = [limiterFor('recover'), limiterFor('recover-hour')];
  const sso = new SsoService(db, clock, accounts, config);
  const { publicUrl } = config;
  registerAuthRoutes(app, { accounts, policy, recovery, sso, publicUrl, limiter: limiterFor('auth'), recoverLimiters });
  registerOnboardingRoutes(app, {
    onboarding,
    exchangeLimiter: limiterFor('exchange'),
    devicesLimiter: limiterFor('devices'),
  });
  const leaderboard = new LeaderboardService(db, clock, deps.hooks?.leaderboard);
  // A user who just synced finds themselves: uploads that change usage bring a refresh forward.
  const freshness = leaderboardFreshness(config, clock, leaderboard, logger);
  const notify = createNotifications({ db, clock, config, logger, prices: book, teams: teamAccess(db), mailer });
  registerApiTokenRoutes(app, { apiTokens, limiter: limiterFor('devices') });
  const ingestWriter = createIngestWriter(db, book.forWriters(), {
    maxTokensPerUserDay: BigInt(limits.maxTokensPerUserDay),
    maxBucketsPerHalfHour: limits.maxBucketsPerHalfHour,
    maxStoredBuckets: limits.maxStoredBucketsPerUser,
  });
  const ingestLimiter = limiterFor('ingest');
  const onUsageChanged = (userId: string) => (freshness?.usageChanged(), notify.usageChanged(userId));
  // The OTLP state is remembered only where nothing else writes it: SQLite served by this one process.
  const soleWriter = db.dialect === 'sqlite' && peers === noPeers;
  const otlpDeps = { db, clock, config, writer: ingestWriter, limiter: ingestLimiter, onUsageChanged, soleWriter };
  const channels = await registerOtlpReceiver(app, otlpDeps);
  registerDeviceRoutes(app, { devices, channels });
  registerIngestRoutes(app, {
    onUsageChanged,
    channels,
    clock,
    devices,
    writer: ingestWriter,
    limiter: ingestLimiter,
    inflight: new InflightGate(limits.ingestMaxInflight),
    syncMinIntervalMinutes: config.syncMinIntervalMinutes,
    countBuckets: (accepted, skipped, refused) => metrics.countBuckets(accepted, skipped, refused),
  });
  const pricing = () => repricer.status();
  registerDiagnosticsRoutes(app, { anonKey: secrets.anonKey, version: packageInfo().version, pricing });
  registerCliPackageRoutes(app, { dir: config.cliPackageDir, version: packageInfo().version });
  registerSharingRoutes(app, { sharing });
  registerUsageRoutes(app, { analytics });
  registerLeaderboardRoutes(app, { leaderboard });
  const onToolFailure = (tool: string, err: unknown) => logger.error({ err, tool }, 'mcp: a tool failed');
  const budgetStatus = (userId: string) => budgetList(notify.budgets, userId);
  const version = packageInfo().version;
  const mcp = new McpEndpoint({ analytics, leaderboard, clock, version, onToolFailure, budgetStatus });
  registerMcpRoutes(app, { mcp, limiter: limiterFor('mcp') });
  notify.register(app, config.jobsEnabled);
  const teamInvites = registerTeams(app, { db, clock, config, logger, prices: book, mailer });
  // A deleted or disabled account: its credentials are forgotten here and in the other processes.
  const forget = (kind: 'account-deleted' | 'account-disabled', userId: string) => {
    credentials.forgetAccount(userId);
    peers.tell({ kind, userId });
  };
  const deletion = new AccountDeletionService({
    db,
    leaderboard,
    scryptCost: config.auth.scryptCost,
    forget: (userId) => forget('account-deleted', userId),
  });
  registerAccountRoutes(app, { db, clock, config, deletion, limiter: limiterFor('auth'), prices: book });
  const admin = new InstanceAdminService({
    db,
    clock,
    deletion,
    forget: (userId) => forget('account-disabled', userId),
  });
  registerInstanceAdminRoutes(app, { admin, policy, recovery, inviteLimiter: limiterFor('invites') });
  registerBadgeRoutes(app, { badges: new BadgeService(leaderboard), maxAgeSeconds: config.leaderboardRefreshSeconds });
  const keptPricing = createPricingStore(db, config.dataDir);
  logger.info(`pricing: ${await restoreStoredPricing({ prices, store: keptPricing })}`);
  // Price data lives in each process's memory: a switch kept by one process is loaded by the others.
  const pricingStore: PricingStore = {
    ...keptPricing,
    save: async (kept) => {
      await keptPricing.save(kept);
      peers.tell({ kind: 'prices-changed' });
    },
  };
  const stopListening = peers.listen((message) => {
    if (message.kind === 'device-revoked') return credentials.forgetDevice(message.deviceId);
    if (message.kind === 'api-token-revoked') return credentials.forgetApiToken(message.tokenId);
    if (message.kind === 'account-deleted' || message.kind === 'account-disabled')
      return credentials.forgetAccount(message.userId);
    void restoreStoredPricing({ prices, store: keptPricing }).then((what) =>
      logger.info(`pricing: another server process switched prices; ${what}`),
    );
    // The stored costs may have moved to other data, or a repricing started that this process may have to take over.
    void book.refresh().then(
      () => repricer.resume(),
      (error: unknown) => logger.error({ err: error }, "pricing: could not read the stored costs' price data"),
    );
  });
  // Stored daily costs follow this process's price data (a new package version, kept synced data, a
  // fresh migration): repriced in the background while answers use the data they were priced by.
  logger.info(`pricing: ${await repricer.start(prices.data)}`);
  registerAdminRoutes(app, { db, clock, prices, repricer, pricingStore, pricingSourceUrl: config.pricingSourceUrl });
  registerDiscoveryRoutes(app);
  const profiles = new ProfilePageService({ db, clock, analytics, leaderboard });
  registerProfileRoutes(app, { profiles });
  registerDashboardRoutes(app, { profilePreview: (a) => profiles.preview(a), publicUrl: config.publicUrl });
  registerDiscoveryDocRoutes(app, config.publicUrl);
  registerMetricsRoute(app, { metrics, serviceRoleKey: secrets.serviceRoleKey, metricsToken: config.metricsToken });

  await app.ready();
  // Scheduled jobs (leaderboard refresh, pricing sync, event retention); off in tests. Each run is
  // claimed in the database, so instances sharing it run each job once an interval in all.
  const schedule = config.jobsEnabled
    ? startSchedule(
        [
          ...serverJobs({
            db,
            clock,
            leaderboard,
            prices,
            repricer,
            pricingStore,
            pricingSourceUrl: config.pricingSourceUrl,
            leaderboardRefreshSeconds: config.leaderboardRefreshSeconds,
          }),
          ...notify.jobs,
        ],
        logger,
        {
          claim: databaseJobClaims(db, clock),
          onRun: (name, seconds, outcome) => metrics.countJobRun(name, seconds, outcome),
        },
      )
    : undefined;
  let closed = false;
  return {
    app,
    secrets,
    leaderboardFreshness: freshness,
    repricing: repricer,
    recovery,
    notifications: notify,
    teamInvites,
    close: async () => {
      if (closed) return;
      closed = true;
      stopListening();
      await repricer.close();
      freshness?.close();
      await freshness?.idle();
      await schedule?.stop();
      await notify.close();
      await app.close();
      await recovery.close();
      await teamInvites.close();
      mailer?.close();
      await ingestWriter.close();
      await db.close();
    },
  };
}
