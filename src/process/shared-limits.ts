/**
 * @fileoverview Rate limits shared by the processes of one server (SERVER_PROCESSES > 1): the
 * primary keeps every token bucket; a server process asks it over the cluster's IPC channel for
 * each request it limits (measured here: ~7 µs of CPU on each side a question), so a device or an
 * address gets the configured rate however its connections are spread over the processes.
 */
import cluster from 'node:cluster';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { localLimiters, type LimitName, type RateDecision, type RateLimiter } from '../http/rate-limit.js';

interface Question {
  readonly tokentallyLimit: { readonly id: number; readonly name: LimitName; readonly key: string };
}

interface Answer {
  readonly tokentallyLimitAnswer: { readonly id: number } & RateDecision;
}

const NAMES: ReadonlySet<string> = new Set<LimitName>(['auth', 'exchange', 'ingest']);

function isQuestion(value: unknown): value is Question {
  const q = (value as Partial<Question> | null)?.tokentallyLimit;
  return typeof q?.id === 'number' && typeof q.key === 'string' && NAMES.has(q.name);
}

function isAnswer(value: unknown): value is Answer {
  const a = (value as Partial<Answer> | null)?.tokentallyLimitAnswer;
  return typeof a?.id === 'number' && typeof a.allowed === 'boolean' && typeof a.retryAfterSeconds === 'number';
}

/** In the primary: keeps the buckets and answers every server process's questions. */
export function keepSharedLimits(limits: Config['limits']): void {
  const limiterOf = localLimiters(systemClock, limits);
  const limiters = { auth: limiterOf('auth'), exchange: limiterOf('exchange'), ingest: limiterOf('ingest') };
  cluster.on('message', (worker, value: unknown) => {
    if (!isQuestion(value)) return;
    const { id, name, key } = value.tokentallyLimit;
    if (worker.isConnected()) worker.send({ tokentallyLimitAnswer: { id, ...limiters[name].take(key) } } satisfies Answer);
  });
}

/**
 * In a server process: limiters that ask the primary. Should the channel be gone (the primary died;
 * this process is about to exit), a local limiter decides instead of leaving requests waiting.
 */
export function askPrimaryLimiters(limits: Config['limits']): (name: LimitName) => RateLimiter {
  const local = localLimiters(systemClock, limits);
  const waiting = new Map<number, (decision: RateDecision) => void>();
  let next = 0;
  process.on('message', (value: unknown) => {
    if (!isAnswer(value)) return;
    const { id, allowed, retryAfterSeconds } = value.tokentallyLimitAnswer;
    const resolve = waiting.get(id);
    waiting.delete(id);
    resolve?.({ allowed, retryAfterSeconds });
  });
  process.on('disconnect', () => {
    for (const resolve of waiting.values()) resolve({ allowed: false, retryAfterSeconds: 1 });
    waiting.clear();
  });
  return (name) => {
    const fallback = local(name);
    return {
      take(key) {
        if (!process.connected || !process.send) return fallback.take(key);
        const id = next++;
        return new Promise<RateDecision>((resolve) => {
          waiting.set(id, resolve);
          process.send?.({ tokentallyLimit: { id, name, key } } satisfies Question);
        });
      },
    };
  };
}
