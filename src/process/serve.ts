/**
 * @fileoverview One server process: open the database, build the app, listen; on SIGTERM/SIGINT
 * stop accepting, finish in-flight requests, close the database and exit 0. Connections still open
 * after SHUTDOWN_GRACE_MS are closed, so a client that never finishes its request cannot hold the
 * process up.
 */
import type { Logger } from 'pino';
import { createApp } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { shareWithOtherInstances } from './instances.js';

/**
 * Serves until a signal. `role` says whether this is the whole server or one of a cluster's
 * processes: only the whole server announces the address (a cluster's primary does that once all
 * its processes listen).
 */
export async function serve(config: Config, logger: Logger, role: 'server' | 'cluster-worker'): Promise<void> {
  const db = await openDatabase(config.database, {
    idleConnectionLost: (reason) => logger.warn({ reason }, 'PostgreSQL ended an idle pooled connection; dropped it'),
  });
  const sharing = await shareWithOtherInstances(config, db, logger, role === 'cluster-worker');
  const { app, close } = await createApp({
    config,
    db,
    logger,
    peers: sharing.peers,
    ...(sharing.limiters ? { limiters: sharing.limiters } : {}),
  });
  const address = await app.listen({ host: config.host, port: config.port });
  if (role === 'server') logger.info({ database: config.database.kind }, `Tokentally listening on ${address}`);
  else logger.info({ database: config.database.kind }, 'server process ready');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.warn(
        { graceMs: config.timeouts.shutdownGraceMs },
        'closing the connections still open after the shutdown grace period',
      );
      app.server.closeAllConnections();
    }, config.timeouts.shutdownGraceMs);
    close()
      .then(() => sharing.close())
      .then(
        () => {
          clearTimeout(force);
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
