/**
 * @fileoverview The one place with timers: every scheduled job of the server, started by app.ts
 * only when JOBS_ENABLED, stopped by the app's close(). A job never overlaps itself (the next run
 * is timed from the end of the previous one) and logs one line per run with what it did.
 *
 * Several instances on one database each keep this schedule; before a run each asks `claim`
 * (jobs/claims.ts), and only the one that claims the interval runs it: once an interval in all.
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

export interface ScheduleOptions {
  /** Whether this instance runs the job now (no other started it within the interval); default yes. */
  claim?: (job: ScheduledJob) => Promise<boolean>;
  /** Told of each run that happened (for the metrics). */
  onRun?: (name: string, seconds: number, outcome: 'ok' | 'failed') => void;
}

export interface Schedule {
  stop(): Promise<void>;
}

export function startSchedule(jobs: readonly ScheduledJob[], logger: Logger, options: ScheduleOptions = {}): Schedule {
  const claim = options.claim ?? (async () => true);
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const plan = (job: ScheduledJob, delay: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      const run = claim(job)
        .then(async (mine) => {
          if (!mine) {
            logger.debug({ job: job.name }, `job ${job.name}: run by another instance this interval`);
            return;
          }
          const started = Date.now();
          const elapsed = () => Date.now() - started;
          await job.run().then(
            ({ summary, details }) => {
              options.onRun?.(job.name, elapsed() / 1000, 'ok');
              logger.info({ job: job.name, ms: elapsed(), ...details }, `job ${job.name}: ${summary}`);
            },
            (error: unknown) => {
              options.onRun?.(job.name, elapsed() / 1000, 'failed');
              logger.error(
                { job: job.name, ms: elapsed(), err: error },
                `job ${job.name} failed: ${(error as Error).message}`,
              );
            },
          );
        })
        .catch((error: unknown) =>
          logger.error(
            { job: job.name, err: error },
            `job ${job.name}: could not claim the run: ${(error as Error).message}`,
          ),
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
