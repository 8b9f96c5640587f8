/**
 * @fileoverview Waiting for SQLite's write lock without blocking the event loop. Connections are
 * opened with a busy timeout of 0, so a write that finds the lock taken by another connection
 * (another server process on the same file) fails at once with SQLITE_BUSY instead of sleeping
 * inside SQLite with the event loop stopped; the caller tries again after a short timer, up to
 * SQLITE_BUSY_TIMEOUT_MS, then answers 503.
 */
import { Busy } from '../domain/errors.js';

export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** A write that never got the lock: a domain {@link Busy}, which the HTTP edge answers 503 with Retry-After. */
export class DatabaseBusyError extends Busy {
  constructor() {
    super('The database is busy with other writes; try again shortly.', { retryAfterSeconds: 1 });
    this.name = 'DatabaseBusyError';
  }
}

export function busyError(): DatabaseBusyError {
  return new DatabaseBusyError();
}

let retries = 0;

/** How many busy writes this process has tried again (for the metrics). */
export function busyRetryCount(): number {
  return retries;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` until it does not fail with SQLITE_BUSY (1, 2, 4 … 16 ms apart), at most `timeoutMs`. */
export async function whenUnlocked<T>(attempt: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  let started: number | undefined; // from the first busy answer: a statement that runs costs no clock read
  for (let wait = 1; ; wait = Math.min(wait * 2, 16)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error)) throw error;
      started ??= performance.now();
      if (performance.now() - started >= timeoutMs) throw busyError();
      retries += 1;
      await sleep(wait);
    }
  }
}
