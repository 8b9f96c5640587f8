/**
 * @fileoverview What this server process shares with the others serving the same database, chosen
 * from the configuration (docs/deploy.md):
 *
 * - rate limits (RATE_LIMIT_STORE): in Redis (the default when REDIS_URL is set); in the database
 *   (the default on PostgreSQL: every instance on it, every process of each); or local: in a server
 *   of several processes, its primary, else this process's memory;
 * - peer word (a price switch): on PostgreSQL by LISTEN/NOTIFY to every instance; else, in a
 *   cluster, through its primary; else nobody to tell.
 *
 * Scheduled jobs are claimed through the database by app.ts (jobs/claims.ts) on either engine.
 */
import type { Logger } from 'pino';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { currentDatabaseAndSchema } from '../db/queries/database.js';
import type { LimitName, RateLimiter } from '../http/rate-limit.js';
import { postgresLimiters } from './limits-postgres.js';
import { redisLimiters } from './limits-redis.js';
import { clusterPeers, noPeers, type Peers } from './peers.js';
import { postgresPeers } from './peers-postgres.js';
import { askPrimaryLimiters } from './shared-limits.js';

export interface InstanceSharing {
  peers: Peers;
  /** Undefined: this process's own buckets. */
  limiters?: (name: LimitName) => RateLimiter;
  close(): Promise<void>;
}

export async function shareWithOtherInstances(
  config: Config,
  db: Db,
  logger: Logger,
  inCluster: boolean,
): Promise<InstanceSharing> {
  const closers: Array<() => Promise<void>> = [];
  let limiters: InstanceSharing['limiters'];
  let peers: Peers = inCluster ? clusterPeers() : noPeers;
  if (config.rateLimitStore === 'redis' && config.redisUrl !== undefined) {
    const redis = redisLimiters(config.redisUrl, await redisPrefix(db, config), systemClock, config.limits, logger);
    closers.push(redis.close);
    limiters = redis.limiters;
  } else if (config.rateLimitStore === 'database' && db.dialect === 'postgres') {
    limiters = postgresLimiters(db, systemClock, config.limits, logger);
  } else if (inCluster) {
    limiters = askPrimaryLimiters(config.limits);
  }
  if (db.dialect === 'postgres' && config.database.kind === 'postgres') {
    const listening = await postgresPeers(db, config.database.url, logger);
    closers.push(listening.close);
    peers = listening;
  }
  return {
    peers,
    ...(limiters ? { limiters } : {}),
    close: async () => {
      await Promise.all(closers.map((close) => close()));
    },
  };
}

/** Keeps one service's buckets apart from another's on a shared Redis: its database and schema. */
async function redisPrefix(db: Db, config: Config): Promise<string> {
  if (db.dialect === 'sqlite')
    return `tokentally:sqlite:${config.database.kind === 'sqlite' ? config.database.file : ''}`;
  const row = await currentDatabaseAndSchema(db);
  return `tokentally:pg:${row?.db ?? ''}:${row?.schema ?? ''}`;
}
