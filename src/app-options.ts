/**
 * @fileoverview Parts of the app made from the configuration: Fastify's trust-proxy rule, the
 * external OIDC provider's JWT settings, the password recovery service with its mailer and the
 * leaderboard's refresh after uploads (used by app.ts only).
 */
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { describeMailError, type Mailer } from './mail/mailer.js';
import type { AccountService } from './services/accounts.js';
import type { LeaderboardService } from './services/leaderboard.js';
import { LeaderboardFreshness } from './services/leaderboard-freshness.js';
import { RecoveryService } from './services/recovery.js';
import type { ExternalJwtOptions } from './security/jwt.js';

/** The external OIDC provider's settings, when one is configured (config.ts guarantees issuer and audience with it). */
export function externalJwt(auth: Config['auth']): ExternalJwtOptions | undefined {
  const { jwksUrl, issuer, audience, algorithms } = auth;
  if (jwksUrl === undefined) return undefined;
  if (issuer === undefined || audience === undefined)
    throw new Error('AUTH_JWKS_URL needs AUTH_ISSUER and AUTH_AUDIENCE');
  return { jwksUrl, issuer, audience, algorithms };
}

/** Fastify's form of TRUST_PROXY: the client is the address the last trusted proxy saw. */
export function trustProxyOption(
  trust: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/** Password recovery, mailing through SMTP_URL when it is set; a failed send is logged without credentials. */
export function recoveryService(
  db: Db,
  clock: Clock,
  accounts: AccountService,
  config: Config,
  logger: Logger,
  mailer: Mailer | undefined,
): RecoveryService {
  const { mail } = config;
  return new RecoveryService(db, clock, accounts, {
    publicUrl: config.publicUrl,
    mailer,
    onMailError: (error) =>
      logger.error(`mail: a password recovery e-mail was not sent (${describeMailError(error, mail?.smtpUrl ?? '')})`),
  });
}

/** The leaderboard refresh brought forward by uploads, when LEADERBOARD_FRESH_SECONDS > 0. */
export function leaderboardFreshness(
  config: Config,
  clock: Clock,
  leaderboard: LeaderboardService,
  logger: Logger,
): LeaderboardFreshness | undefined {
  if (config.leaderboardFreshSeconds <= 0) return undefined;
  return new LeaderboardFreshness({
    clock,
    refresh: () => leaderboard.refresh(),
    oldestSnapshotAt: () => leaderboard.oldestSnapshotAt(),
    minAgeMs: config.leaderboardFreshSeconds * 1000,
    onError: (error) => logger.error({ err: error }, 'leaderboard: refresh after an upload failed'),
  });
}
