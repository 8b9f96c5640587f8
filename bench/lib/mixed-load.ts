/**
 * @fileoverview The soak's load generator: keep-alive HTTP requests drawn from a mix (uploads,
 * dashboard reads, leaderboard reads), either as fast as `connections` allow (to find the maximum)
 * or at a fixed rate (open loop: requests are sent when due, not when the previous one answered, so
 * a slower server shows as a lower throughput and more outstanding requests, not as a gentler load).
 */
import http from 'node:http';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Outcome {
  ok: boolean;
  /** The HTTP status, or the socket error's code (e.g. ECONNRESET) when there was no answer. */
  status: number | string;
  ms: number;
  label: string;
}

export class HttpTarget {
  private readonly agent: http.Agent;
  constructor(
    private readonly port: number,
    connections: number,
  ) {
    // FIFO reuse keeps every pooled socket busy, and idle ones are closed after 4 s: a socket the
    // server is closing must not be picked for the next request (a client-side ECONNRESET).
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, scheduling: 'fifo', timeout: 4000 });
  }

  send(req: LoadRequest, label: string): Promise<Outcome> {
    const started = performance.now();
    return new Promise((resolve) => {
      const headers: Record<string, string | number> = { ...req.headers };
      if (req.body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(req.body);
      }
      const r = http.request(
        { host: '127.0.0.1', port: this.port, method: req.method, path: req.path, headers, agent: this.agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            resolve({ ok: status >= 200 && status < 300, status, ms: performance.now() - started, label });
          });
        },
      );
      r.setTimeout(30_000, () => r.destroy(new Error('timeout')));
      r.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ ok: false, status: error.code ?? error.message, ms: performance.now() - started, label }),
      );
      r.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Sends `next()` requests with `connections` in flight for `seconds`; returns completed requests a second. */
export async function closedLoop(
  target: HttpTarget,
  next: () => [LoadRequest, string],
  connections: number,
  seconds: number,
): Promise<{ perSecond: number; errors: number }> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const [req, label] = next();
      const outcome = await target.send(req, label);
      done += 1;
      if (!outcome.ok) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { perSecond: done / seconds, errors };
}

/**
 * Sends `next()` at `perSecond` (every 5 ms, the requests due by then) until `stop()` says so, at
 * most `maxOutstanding` unanswered (beyond that a due request is counted as `behind` and dropped).
 */
export async function openLoop(
  target: HttpTarget,
  next: () => [LoadRequest, string],
  perSecond: number,
  maxOutstanding: number,
  onOutcome: (outcome: Outcome) => void,
  stop: () => boolean,
): Promise<{ behind: number }> {
  const started = performance.now();
  let sent = 0;
  let outstanding = 0;
  let behind = 0;
  const inFlight = new Set<Promise<void>>();
  while (!stop()) {
    const due = Math.floor(((performance.now() - started) / 1000) * perSecond);
    while (sent < due) {
      sent += 1;
      if (outstanding >= maxOutstanding) {
        behind += 1;
        continue;
      }
      outstanding += 1;
      const [req, label] = next();
      const p = target.send(req, label).then((outcome) => {
        outstanding -= 1;
        onOutcome(outcome);
      });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all([...inFlight]);
  return { behind };
}
