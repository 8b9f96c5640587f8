/**
 * @fileoverview The time one request spends in queries, and the `debug=1` block that reports it.
 */
import type { Debug } from '../schemas/usage.js';

/** A request whose queries take longer than this is flagged `slow_query` in its debug block. */
export const SLOW_QUERY_MS = 2000;
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
