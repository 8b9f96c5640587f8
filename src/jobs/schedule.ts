/**
 * @fileoverview The one place with timers: every scheduled job of the server, started by app.ts
 * only when JOBS_ENABLED, stopped by the app's close(). A job never overlaps itself (the next run
 * is timed from the end of the previous one) and logs one line per run with what it did.
 */
import type { Logger } from 'pino';

export interface ScheduledJob {
  readonly name: string;
  /** Delay before the first run. */
  readonly firstRunAfterMs: number;
  readonly everyMs: number;
  /** Does the work and returns a short summary for the log line. */
  run(): Promise<{ summary: string; details?: Record<string, unknown> }>;
}

export interface Schedule {
  stop(): Promise<void>;
}

export function startSchedule(jobs: readonly ScheduledJob[], logger: Logger): Schedule {
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const plan = (job: ScheduledJob, delay: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      const started = Date.now();
      const run = job
        .run()
        .then(
          ({ summary, details }) => logger.info({ job: job.name, ms: Date.now() - started, ...details }, `job ${job.name}: ${summary}`),
          (error: unknown) => logger.error({ job: job.name, ms: Date.now() - started, err: error }, `job ${job.name} failed: ${(error as Error).message}`),
        )
        .finally(() => {
          running.delete(run);
          plan(job, job.everyMs);
        });
      running.add(run);
    }, delay);
    timer.unref();
    timers.set(job.name, timer);
  };

  for (const job of jobs) plan(job, job.firstRunAfterMs);

  return {
    async stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.allSettled([...running]);
    },
  };
}
