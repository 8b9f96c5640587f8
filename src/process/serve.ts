/**
 * @fileoverview One server process: open the database, build the app, listen; on SIGTERM/SIGINT
 * stop accepting, finish in-flight requests, close the database and exit 0.
 */
import type { Logger } from 'pino';
import { createApp } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { clusterPeers, noPeers } from './peers.js';
import { askPrimaryLimiters } from './shared-limits.js';

/**
 * Serves until a signal. `role` says whether this is the whole server or one of a cluster's
 * processes: only the whole server announces the address (a cluster's primary does that once all
 * its processes listen).
 */
export async function serve(config: Config, logger: Logger, role: 'server' | 'cluster-worker'): Promise<void> {
  const db = await openDatabase(config.database);
  const inCluster = role === 'cluster-worker';
  const { app, close } = await createApp({
    config,
    db,
    logger,
    peers: inCluster ? clusterPeers() : noPeers,
    ...(inCluster ? { limiters: askPrimaryLimiters(config.limits) } : {}),
  });
  const address = await app.listen({ host: config.host, port: config.port });
  if (role === 'server') logger.info({ database: config.database.kind }, `Tokentally listening on ${address}`);
  else logger.info({ database: config.database.kind }, 'server process ready');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
