/**
 * @fileoverview Rate limits kept in Redis (REDIS_URL), shared by every instance that uses it: the
 * same token buckets as process memory (http/rate-limit.ts), one hash a limit and key, taken from by
 * a Lua script so a take is atomic. ioredis sends the commands of one event-loop turn as one
 * pipeline (enableAutoPipelining), so a busy instance pays one round trip a turn.
 *
 * No offline queue: while Redis is unreachable a take fails at once and this process's own buckets
 * decide meanwhile (never a 5xx), with one warning a minute.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { limitSettings, localLimiters, type LimitName, type RateLimiter } from '../http/rate-limit.js';

/** KEYS[1] the bucket; ARGV burst, refill per ms, now (ms). Returns {allowed 0|1, tokens left}. */
const TAKE = `
local burst = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 't', 'u')
local tokens = tonumber(b[1]) or burst
local updated = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - updated) * refill)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'u', tostring(math.max(now, updated)))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / refill) + 1000)
return {allowed, tostring(tokens)}`;

type TakeCommand = (key: string, burst: number, refillPerMs: number, now: number) => Promise<[number, string]>;

export interface RedisLimiters {
  limiters: (name: LimitName) => RateLimiter;
  close(): Promise<void>;
}

/** `prefix` keeps the keys of one service (database) apart from another's on a shared Redis. */
export function redisLimiters(
  url: string,
  prefix: string,
  clock: Clock,
  limits: Config['limits'],
  logger: Logger,
): RedisLimiters {
  const redis = new Redis(url, {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  redis.on('error', () => undefined); // reported by the takes that fail, once a minute
  redis.defineCommand('tokentallyTake', { numberOfKeys: 1, lua: TAKE });
  const take = (redis as unknown as { tokentallyTake: TakeCommand }).tokentallyTake.bind(redis);
  const settings = limitSettings(limits);
  const local = localLimiters(clock, limits);
  let warnedAt = -Infinity;
  return {
    limiters(name) {
      const fallback = local(name);
      const { perMinute, burst } = settings[name];
      const refillPerMs = perMinute / 60_000;
      return {
        take: async (key) => {
          try {
            const [allowed, tokens] = await take(`${prefix}:rl:${name}:${key}`, burst, refillPerMs, clock.now());
            if (allowed === 1) return { allowed: true, retryAfterSeconds: 0 };
            return {
              allowed: false,
              retryAfterSeconds: Math.max(1, Math.ceil((1 - Number(tokens)) / refillPerMs / 1000)),
            };
          } catch (error) {
            const now = clock.now();
            if (now - warnedAt >= 60_000) {
              warnedAt = now;
              logger.warn({ err: error }, 'rate limits: Redis did not answer; this process decides alone meanwhile');
            }
            return fallback.take(key);
          }
        },
      };
    },
    close: async () => {
      redis.disconnect();
    },
  };
}
