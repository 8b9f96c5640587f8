/**
 * @fileoverview Rate limits kept in PostgreSQL, shared by every instance on the database: the
 * token buckets of process memory (http/rate-limit.ts), one row a limit and key in
 * `rate_limit_buckets`. The questions of one event-loop turn go as one statement a limit (one
 * upsert over all their keys, a key asked n times taking up to n tokens at once), so a busy
 * instance pays one round trip a turn, not one an upload (docs/deploy.md has the measured cost).
 *
 * Should the database not answer, this process's own buckets decide meanwhile (a limit that
 * fails open to per-instance limits, never a 5xx), and one warning a minute says so.
 */
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { PostgresDb } from '../db/connect.js';
import { sweepFullBuckets, takeTokens } from '../db/queries/rate-limits.js';
import {
  limitSettings,
  localLimiters,
  type LimitName,
  type RateDecision,
  type RateLimiter,
} from '../http/rate-limit.js';
import { batchPerTurn } from './turn-batch.js';

const SWEEP_EVERY_MS = 60_000;

interface Question {
  readonly name: LimitName;
  readonly key: string;
}

export function postgresLimiters(
  db: PostgresDb,
  clock: Clock,
  limits: Config['limits'],
  logger: Logger,
): (name: LimitName) => RateLimiter {
  const settings = limitSettings(limits);
  const local = localLimiters(clock, limits);
  let warnedAt = -Infinity;
  let sweptAt = clock.now();

  const takeAll = async (
    name: LimitName,
    keys: readonly string[],
    now: number,
  ): Promise<Map<string, RateDecision[]>> => {
    const { perMinute, burst } = settings[name];
    const refillPerMs = perMinute / 60_000;
    const counts = new Map<string, number>();
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
    const rows = await takeTokens(db, { name, burst, refillPerMs, now }, counts);
    const decisions = new Map<string, RateDecision[]>();
    for (const row of rows) {
      const asked = counts.get(row.key) ?? 0;
      const granted = Number(row.granted);
      const retryAfterSeconds = Math.max(1, Math.ceil((1 - Number(row.tokens)) / refillPerMs / 1000));
      const list: RateDecision[] = [];
      for (let i = 0; i < asked; i++)
        list.push(i < granted ? { allowed: true, retryAfterSeconds: 0 } : { allowed: false, retryAfterSeconds });
      decisions.set(row.key, list);
    }
    return decisions;
  };

  const sweep = (now: number) => {
    if (now - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now;
    for (const [name, { perMinute, burst }] of Object.entries(settings)) {
      sweepFullBuckets(db, name, now - Math.ceil((burst * 60_000) / perMinute)).catch(() => undefined);
    }
  };

  const ask = batchPerTurn<Question, RateDecision>(async (questions) => {
    const now = clock.now();
    sweep(now);
    const names = [...new Set(questions.map((q) => q.name))];
    const byName = new Map(
      await Promise.all(
        names.map(
          async (name) =>
            [
              name,
              await takeAll(
                name,
                questions.filter((q) => q.name === name).map((q) => q.key),
                now,
              ),
            ] as const,
        ),
      ),
    );
    return questions.map((q) => byName.get(q.name)?.get(q.key)?.shift() ?? { allowed: true, retryAfterSeconds: 0 });
  });

  return (name) => {
    const fallback = local(name);
    return {
      take: (key) =>
        ask({ name, key }).catch((error: unknown) => {
          const now = clock.now();
          if (now - warnedAt >= 60_000) {
            warnedAt = now;
            logger.warn(
              { err: error },
              'rate limits: the database did not answer; this process decides alone meanwhile',
            );
          }
          return fallback.take(key);
        }),
    };
  };
}
