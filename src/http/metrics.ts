/**
 * @fileoverview What the server counts for Prometheus (/metrics, routes/metrics.ts), with
 * prom-client: requests by operation and status with their latency, uploads and buckets by outcome,
 * 429s, scheduled job runs, SQLite busy retries, and the process's own figures (event-loop lag,
 * memory, CPU). Counted at the edges: one onResponse hook for every request (a cached child
 * histogram a route and status, so a request costs one Map look-up and one observe), the ingest
 * route for its buckets, the schedule for its jobs.
 *
 * Each app has its own registry (tests build many apps in one process); the process's figures are
 * collected once a process, from the first app on, and merged in when scraped.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry, type LabelValues } from 'prom-client';
import { busyRetryCount } from '../db/sqlite-busy.js';

let processRegistry: Registry | undefined;

/** Node's figures for this process (event-loop lag, heap, RSS, CPU, handles), collected once. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
  }
  return processRegistry;
}

type Operation = 'operation' | 'status';

export class Metrics {
  private readonly registry = new Registry();
  private readonly requests = new Histogram<Operation>({
    name: 'tokentally_http_request_duration_seconds',
    help: 'HTTP requests by operation (operationId, or the route) and status, with their latency.',
    labelNames: ['operation', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter<'operation'>({
    name: 'tokentally_http_rate_limited_total',
    help: 'Requests answered 429 (a rate limit or the in-flight cap), by operation.',
    labelNames: ['operation'],
    registers: [this.registry],
  });
  private readonly uploads = new Counter<'outcome'>({
    name: 'tokentally_ingest_uploads_total',
    help: 'Uploads (ingestUsage) by outcome: accepted (stored), refused (429: rate or in-flight cap), rejected (any other 4xx/5xx).',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly buckets = new Counter<'outcome'>({
    name: 'tokentally_ingest_buckets_total',
    help: 'Buckets of uploads by outcome: accepted (stored or replaced), skipped (unchanged), refused (in an upload with too many buckets).',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly jobRuns = new Counter<'job' | 'outcome'>({
    name: 'tokentally_job_runs_total',
    help: 'Scheduled job runs on this instance, by job and outcome (ok, failed).',
    labelNames: ['job', 'outcome'],
    registers: [this.registry],
  });
  private readonly jobSeconds = new Histogram<'job'>({
    name: 'tokentally_job_duration_seconds',
    help: 'How long scheduled job runs took, by job.',
    labelNames: ['job'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  private readonly requestChildren = new Map<string, { observe(value: number): void }>();

  constructor() {
    processMetrics(); // the event-loop monitor measures from the start, not from the first scrape
    new Counter({
      name: 'tokentally_db_busy_retries_total',
      help: 'SQLite writes tried again because another process held the write lock (this process).',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(busyRetryCount());
      },
    });
  }

  /** Counts every request once its response is sent. */
  register(app: FastifyInstance): void {
    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const operation = operationOf(request);
      const status = reply.statusCode;
      const key = `${operation} ${status}`;
      let child = this.requestChildren.get(key);
      if (!child) {
        child = this.requests.labels({ operation, status: String(status) } satisfies LabelValues<Operation>);
        this.requestChildren.set(key, child);
      }
      child.observe(reply.elapsedTime / 1000);
      if (status === 429) this.rateLimited.inc({ operation });
      if (operation === 'ingestUsage')
        this.uploads.inc({ outcome: status < 300 ? 'accepted' : status === 429 ? 'refused' : 'rejected' });
      done();
    });
  }

  /** The ingest route's word on one upload's buckets. */
  countBuckets(accepted: number, skipped: number, refused: number): void {
    if (accepted) this.buckets.inc({ outcome: 'accepted' }, accepted);
    if (skipped) this.buckets.inc({ outcome: 'skipped' }, skipped);
    if (refused) this.buckets.inc({ outcome: 'refused' }, refused);
  }

  /** The schedule's word on one job run. */
  countJobRun(job: string, seconds: number, outcome: 'ok' | 'failed'): void {
    this.jobRuns.inc({ job, outcome });
    this.jobSeconds.observe({ job }, seconds);
  }

  /** The Prometheus text exposition of this app and its process. */
  async text(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([this.registry, processMetrics()]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}

/** The operationId of the route, else its URL pattern, else "unmatched" (404s: never the raw path). */
function operationOf(request: FastifyRequest): string {
  const options = request.routeOptions;
  const id = (options.schema as { operationId?: unknown } | undefined)?.operationId;
  if (typeof id === 'string') return id;
  return options.url ?? 'unmatched';
}
