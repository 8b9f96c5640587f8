/**
 * @fileoverview Rate limits shared by the processes of one server (SERVER_PROCESSES > 1): the
 * primary keeps every token bucket; a server process asks it over the cluster's IPC channel for
 * each request it limits, so a device or an address gets the configured rate however its
 * connections are spread over the processes. The questions of one event-loop turn travel as one
 * message and come back as one: a message a question (a pipe write and a wake-up of the primary
 * each) cost about the whole gain of a second process (docs/decisions.md).
 */
import cluster from 'node:cluster';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { LIMIT_NAMES, localLimiters, type LimitName, type RateDecision, type RateLimiter } from '../http/rate-limit.js';

/** Questions of one turn: [id, limit, key] each. */
interface Questions {
  readonly tokentallyLimits: ReadonlyArray<readonly [number, LimitName, string]>;
}

/** Their answers: [id, allowed, retryAfterSeconds] each. */
interface Answers {
  readonly tokentallyLimitAnswers: ReadonlyArray<readonly [number, boolean, number]>;
}

const NAMES: ReadonlySet<unknown> = new Set<LimitName>(LIMIT_NAMES);

function isQuestions(value: unknown): value is Questions {
  const list = (value as Partial<Questions> | null)?.tokentallyLimits;
  return (
    Array.isArray(list) &&
    list.every((q) => Array.isArray(q) && typeof q[0] === 'number' && NAMES.has(q[1]) && typeof q[2] === 'string')
  );
}

function isAnswers(value: unknown): value is Answers {
  const list = (value as Partial<Answers> | null)?.tokentallyLimitAnswers;
  return (
    Array.isArray(list) &&
    list.every(
      (a) => Array.isArray(a) && typeof a[0] === 'number' && typeof a[1] === 'boolean' && typeof a[2] === 'number',
    )
  );
}

/** In the primary: keeps the buckets and answers every server process's questions. */
export function keepSharedLimits(limits: Config['limits']): void {
  const limiterOf = localLimiters(systemClock, limits);
  const limiters = Object.fromEntries(LIMIT_NAMES.map((name) => [name, limiterOf(name)])) as Record<
    LimitName,
    ReturnType<typeof limiterOf>
  >;
  cluster.on('message', (worker, value: unknown) => {
    if (!isQuestions(value)) return;
    const answers = value.tokentallyLimits.map(([id, name, key]): [number, boolean, number] => {
      const decision = limiters[name].take(key);
      return [id, decision.allowed, decision.retryAfterSeconds];
    });
    if (worker.isConnected()) worker.send({ tokentallyLimitAnswers: answers } satisfies Answers);
  });
}

/**
 * In a server process: limiters that ask the primary. Should the channel be gone (the primary died;
 * this process is about to exit), a local limiter decides instead of leaving requests waiting.
 */
export function askPrimaryLimiters(limits: Config['limits']): (name: LimitName) => RateLimiter {
  const local = localLimiters(systemClock, limits);
  const waiting = new Map<number, (decision: RateDecision) => void>();
  let asking: Array<[number, LimitName, string]> = [];
  let next = 0;
  const send = () => {
    const questions = asking;
    asking = [];
    if (process.connected) process.send?.({ tokentallyLimits: questions } satisfies Questions);
  };
  process.on('message', (value: unknown) => {
    if (!isAnswers(value)) return;
    for (const [id, allowed, retryAfterSeconds] of value.tokentallyLimitAnswers) {
      const resolve = waiting.get(id);
      waiting.delete(id);
      resolve?.({ allowed, retryAfterSeconds });
    }
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
        if (asking.length === 0) setImmediate(send);
        asking.push([id, name, key]);
        return new Promise<RateDecision>((resolve) => waiting.set(id, resolve));
      },
    };
  };
}
