/**
 * @fileoverview The primary of a multi-process server (SERVER_PROCESSES > 1): it serves nothing
 * itself. It starts one server process and, once that one listens (migrations run, secrets made,
 * price data loaded — the start-up work happens once, not in a race), the others; node's cluster
 * module hands incoming connections to them in turn, all on one port.
 *
 * Scheduled jobs run in the first process only (the others are started with JOBS_ENABLED=false);
 * what one process must tell the others (a price switch) the primary relays (peers.ts); the rate
 * limits' buckets are kept here, for all of them (shared-limits.ts).
 *
 * A process that dies after the server was up is replaced; one that dies during start-up stops
 * the whole server (exit 1), since its replacement would most likely die the same way. On
 * SIGTERM/SIGINT every process is asked to stop (each finishes its in-flight requests) and the
 * primary exits 0 once all have, 1 if any failed to stop cleanly.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { relayPeerMessages } from './peers.js';
import { keepSharedLimits } from './shared-limits.js';

export function runPrimary(config: Config, logger: Logger): void {
  const count = config.processes;
  const workers = new Set<Worker>();
  let ready = 0;
  let up = false;
  let stopping = false;
  let failed = false;

  const fork = (env: Record<string, string>): Worker => {
    const worker = cluster.fork(env);
    workers.add(worker);
    let listening = false;
    worker.once('listening', (address) => {
      listening = true;
      if (stopping) return;
      if (up) {
        logger.info({ pid: worker.process.pid }, 'replacement server process ready');
        return;
      }
      if (ready === 0) for (let i = 1; i < count; i += 1) fork({ JOBS_ENABLED: 'false' });
      ready += 1;
      if (ready === count) {
        up = true;
        const host = address.address ?? config.host;
        logger.info(
          { database: config.database.kind, processes: count },
          `Tokentally listening on http://${host}:${address.port} (${count} processes)`,
        );
      }
    });
    worker.once('exit', (code, signal) => {
      workers.delete(worker);
      if (stopping) {
        if (code !== 0) failed = true;
        if (workers.size === 0) process.exit(failed ? 1 : 0);
        return;
      }
      if (up && listening) {
        logger.error({ pid: worker.process.pid, code, signal }, 'server process exited; starting another');
        fork(env);
        return;
      }
      logger.error({ pid: worker.process.pid, code, signal }, 'server process failed during start-up; stopping');
      failed = true;
      stop();
    });
    return worker;
  };

  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    if (workers.size === 0) process.exit(failed ? 1 : 0);
    for (const worker of workers) worker.process.kill('SIGTERM');
  };

  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  relayPeerMessages();
  keepSharedLimits(config.limits);
  fork({});
}
