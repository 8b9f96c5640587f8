/**
 * @fileoverview The time one request spends in queries, and the `debug=1` block that reports it.
 *
 * The timer travels with the request's work, not through every call: {@link RequestTimer.measure}
 * runs a use case in an AsyncLocalStorage scope holding the timer, and the use cases run each
 * query through {@link timedQuery}, which counts it toward the timer of the scope it runs in (if
 * any). On Node 20 an enabled AsyncLocalStorage hooks every promise of the process (about twice
 * the cost of a bare await), so the scope is open only while a request that asked for `debug=1`
 * runs: the storage is disabled again when the last of them ends.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Debug } from '../schemas/usage.js';

/** A request whose queries take longer than this is flagged `slow_query` in its debug block. */
export const SLOW_QUERY_MS = 2000;

const scope = new AsyncLocalStorage<RequestTimer>();
let measuring = 0;

/** Runs one query, counted by the timer of the request it runs for (when that request is measured). */
export function timedQuery<T>(run: () => Promise<T>): Promise<T> {
  const timer = scope.getStore();
  return timer === undefined ? run() : timer.query(run);
}

/** Measures the time spent in queries for one request (for `debug=1`). */
export class RequestTimer {
  private readonly started = performance.now();
  queryMs = 0;
  queries = 0;

  async query<T>(run: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await run();
    } finally {
      this.queryMs += performance.now() - t0;
      this.queries += 1;
    }
  }

  /** Runs `work` with this timer as the one {@link timedQuery} counts toward. */
  async measure<T>(work: () => Promise<T>): Promise<T> {
    measuring += 1;
    try {
      return await scope.run(this, work);
    } finally {
      measuring -= 1;
      if (measuring === 0) scope.disable();
    }
  }

  debug(requestId: string): Debug {
    const round = (ms: number) => Math.round(ms * 1000) / 1000;
    return {
      request_id: requestId,
      status: 200,
      query_ms: round(this.queryMs),
      total_ms: round(performance.now() - this.started),
      queries: this.queries,
      slow_query: this.queryMs > SLOW_QUERY_MS,
      slow_threshold_ms: SLOW_QUERY_MS,
    };
  }
}
