/**
 * @fileoverview Once an interval across instances: a scheduled job runs on the instance that claims
 * it in the database (`job_claims`), and the others skip that run. A run is claimable once 90 % of
 * the interval has passed since the last start anywhere, so instances whose timers drift apart by
 * up to a tenth of the interval never both run it, and one that stopped is covered by the others.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { claimJobRun } from '../db/queries/job-claims.js';
import type { ScheduledJob } from './schedule.js';

export function databaseJobClaims(db: Db, clock: Clock): (job: ScheduledJob) => Promise<boolean> {
  const holder = randomUUID();
  return (job) => {
    const now = clock.now();
    return claimJobRun(db.kysely, job.name, now, now - Math.floor(job.everyMs * 0.9), holder);
  };
}
