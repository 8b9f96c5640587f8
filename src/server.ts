/**
 * @fileoverview The server entry: one process by default; with SERVER_PROCESSES > 1 this process
 * becomes the primary of a cluster (process/cluster.ts) and each of its workers serves.
 */
import cluster from 'node:cluster';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { runPrimary } from './process/cluster.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  if (config.processes > 1 && cluster.isPrimary) {
    runPrimary(config, logger);
    return;
  }
  // Loaded only where it serves: a cluster's primary never loads the app.
  const { serve } = await import('./process/serve.js');
  await serve(config, logger, cluster.isWorker ? 'cluster-worker' : 'server');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
