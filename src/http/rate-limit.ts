/**
 * @fileoverview Token-bucket rate limiting, per key (client address or device), in memory.
 * A bucket holds up to `burst` tokens and refills at `perMinute` a minute; each request takes one.
 * A server of several processes on SQLite keeps the buckets in its primary (process/shared-limits.ts);
 * instances on PostgreSQL keep them in the database (process/limits-postgres.ts) or, with REDIS_URL,
 * in Redis (process/limits-redis.ts), so the limits hold across all of them (docs/deploy.md).
 */
import { isIPv6 } from 'node:net';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until a token is available (when refused). */
  retryAfterSeconds: number;
}

/**
 * The rate limits: sign-in per address, link-code exchange per address, uploads per device (the
 * interface's, docs/interface.md), link codes created plus device tokens issued per user, and
 * password recovery mails per e-mail address (`recover` a minute, `recover-hour` an hour), and
 * requests to the MCP server per user.
 */
export type LimitName = 'auth' | 'exchange' | 'ingest' | 'devices' | 'invites' | 'recover' | 'recover-hour' | 'mcp';

/** Every limit's name (the shared stores check what they are asked against it). */
export const LIMIT_NAMES: readonly LimitName[] = [
  'auth',
  'exchange',
  'ingest',
  'devices',
  'invites',
  'recover',
  'recover-hour',
  'mcp',
];

/**
 * The key a client address is limited under: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so single addresses would cost an attacker nothing).
 */
export function clientKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const address = ip.split('%')[0] ?? ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  const [head = '', tail] = address.split('::');
  const groupsOf = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Takes one token for a key: decided here, or by the process that keeps the buckets. */
export interface RateLimiter {
  take(key: string): RateDecision | Promise<RateDecision>;
}

/** Each limit's refill and burst, from the configuration (also for the shared stores in process/). */
export function limitSettings(limits: Config['limits']): Record<LimitName, { perMinute: number; burst: number }> {
  return {
    auth: { perMinute: limits.authPerMinute, burst: limits.authPerMinute },
    exchange: { perMinute: limits.exchangePerMinute, burst: limits.exchangePerMinute },
    ingest: { perMinute: limits.ingestPerMinute, burst: limits.ingestBurst },
    devices: { perMinute: limits.devicesPerMinute, burst: limits.devicesPerMinute },
    invites: { perMinute: limits.invitesPerMinute, burst: limits.invitesPerMinute },
    mcp: { perMinute: limits.mcpPerMinute, burst: limits.mcpPerMinute },
    // Recovery mails to one address: 1 a minute and 5 an hour, whichever is tighter.
    recover: { perMinute: 1, burst: 1 },
    'recover-hour': { perMinute: 5 / 60, burst: 5 },
  };
}

/** The limiters of one process, keeping their buckets in its memory. */
export function localLimiters(clock: Clock, limits: Config['limits']): (name: LimitName) => TokenBucketLimiter {
  const settings = limitSettings(limits);
  return (name) => new TokenBucketLimiter(clock, settings[name].perMinute, settings[name].burst);
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    perMinute: number,
    private readonly burst: number,
  ) {
    this.refillPerMs = perMinute / 60_000;
  }

  /** Takes one token for `key` if there is one. */
  take(key: string): RateDecision {
    const now = this.clock.now();
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + Math.max(0, now - bucket.updatedAt) * this.refillPerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.refillPerMs / 1000)) };
  }

  /** Drops buckets that have refilled completely, so memory stays bounded by active keys. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const fullAfterMs = this.burst / this.refillPerMs;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updatedAt >= fullAfterMs) this.buckets.delete(key);
    }
  }
}

/** A process-wide cap on concurrent work (in-flight ingests). */
export class InflightGate {
  private current = 0;
  constructor(private readonly max: number) {}
  tryEnter(): boolean {
    if (this.current >= this.max) return false;
    this.current += 1;
    return true;
  }
  leave(): void {
    this.current = Math.max(0, this.current - 1);
  }
  get inflight(): number {
    return this.current;
  }
}
