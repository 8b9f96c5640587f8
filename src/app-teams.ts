/**
 * @fileoverview Wires the teams feature (docs/teams.md): its services, its invite mails (through
 * the app's mailer, when SMTP_URL is set) and its routes. Used by app.ts only.
 */
import type { Logger } from 'pino';
import type { App } from './app-types.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { findTeamRole, listTeamIdsOf, listTeamMemberIds } from './db/queries/teams.js';
import { describeMailError, type Mailer } from './mail/mailer.js';
import type { TeamAccess } from './services/team-access.js';
import { registerTeamRoutes } from './routes/teams.js';
import { registerTeamUsageRoutes } from './routes/teams-usage.js';
import type { PriceService, PriceSource } from './pricing/index.js';
import { TeamInviteService } from './services/teams-invites.js';
import { TeamService } from './services/teams.js';
import { TeamUsageService } from './services/teams-usage.js';

export function registerTeams(
  app: App,
  deps: {
    db: Db;
    clock: Clock;
    config: Config;
    logger: Logger;
    prices: PriceSource<PriceService>;
    mailer: Mailer | undefined;
  },
): TeamInviteService {
  const { db, clock, config, logger, prices } = deps;
  const { mail } = config;
  const teams = new TeamService(db, clock);
  const invites = new TeamInviteService(db, clock, teams, {
    publicUrl: config.publicUrl,
    mailer: deps.mailer,
    onMailError: (error) =>
      logger.error(`mail: a team invite e-mail was not sent (${describeMailError(error, mail?.smtpUrl ?? '')})`),
  });
  registerTeamRoutes(app, { teams, invites, clock });
  registerTeamUsageRoutes(app, { usage: new TeamUsageService({ db, clock, prices, teams }) });
  return invites;
}

/** What budgets and webhooks ask about teams (services/team-access.ts), answered from the teams tables. */
export function teamAccess(db: Db): TeamAccess {
  return {
    roleIn: (teamId, userId) => findTeamRole(db.kysely, teamId, userId),
    memberIds: (teamId) => listTeamMemberIds(db.kysely, teamId),
    teamsOf: (userId) => listTeamIdsOf(db.kysely, userId),
  };
}
