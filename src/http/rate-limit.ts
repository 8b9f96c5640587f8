/**
 * @fileoverview Token-bucket rate limiting, per key (client address or device), in memory.
 * A bucket holds up to `burst` tokens and refills at `perMinute` a minute; each request takes one.
 * A server of several processes keeps the buckets in its primary (process/shared-limits.ts), so the
 * limits hold across them; separately started servers each keep their own (docs/decisions.md).
 */
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until a token is available (when refused). */
  retryAfterSeconds: number;
}

/** The rate limits of the contract: sign-in per address, link-code exchange per address, uploads per device. */
export type LimitName = 'auth' | 'exchange' | 'ingest';

/** Takes one token for a key: decided here, or by the process that keeps the buckets. */
export interface RateLimiter {
  take(key: string): RateDecision | Promise<RateDecision>;
}

/** Each limit's refill and burst, from the configuration. */
function limitSettings(limits: Config['limits']): Record<LimitName, { perMinute: number; burst: number }> {
  return {
    auth: { perMinute: limits.authPerMinute, burst: limits.authPerMinute },
    exchange: { perMinute: limits.exchangePerMinute, burst: limits.exchangePerMinute },
    ingest: { perMinute: limits.ingestPerMinute, burst: limits.ingestBurst },
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
