/**
 * @fileoverview A small bounded cache whose entries expire: for hot credential lookups.
 *
 * Invalidation wins over a lookup in flight: every `delete`, `forgetWhere` and `clear` moves the
 * cache's epoch, and `cachedLookup` stores an answer only when the epoch is still the one it
 * captured before asking. A lookup that read a credential before its revocation committed, and
 * answers after the revocation forgot it, cannot put it back (its own request may still pass: it
 * began before the revocation).
 */
import type { Clock } from '../clock.js';

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /** Moves with every invalidation (never with expiry or eviction). */
  private invalidations = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The current epoch: capture it before a lookup and pass it to `setIfCurrent`. */
  epoch(): number {
    return this.invalidations;
  }

  delete(key: string): void {
    this.invalidations++;
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches (e.g. the credentials of a deleted account). */
  forgetWhere(matches: (value: V) => boolean): void {
    this.invalidations++;
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  /** Forgets everything (e.g. sessions just ended in this process). */
  clear(): void {
    this.invalidations++;
    this.entries.clear();
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.clock.now() + this.ttlMs });
  }

  /**
   * Stores `value` only if nothing was invalidated since `epoch` was taken (the value may have been
   * read before that invalidation and be stale); says whether it stored it.
   */
  setIfCurrent(key: string, value: V, epoch: number): boolean {
    if (epoch !== this.invalidations) return false;
    this.set(key, value);
    return true;
  }
}

/**
 * Memoises a lookup for `ttlMs`; misses (undefined) are not cached, so a new credential works at
 * once. An answer is kept only if no invalidation happened while it was looked up.
 */
export function cachedLookup<V>(cache: TtlCache<V>, lookup: (key: string) => Promise<V | undefined>) {
  return async (key: string): Promise<V | undefined> => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const epoch = cache.epoch();
    const value = await lookup(key);
    if (value !== undefined) cache.setIfCurrent(key, value, epoch);
    return value;
  };
}

/** A yes/no lookup whose "yes" answers are remembered (a new user works at once). */
export function cachedExists(
  cache: TtlCache<true>,
  exists: (key: string) => Promise<boolean>,
): (key: string) => Promise<boolean> {
  const lookup = cachedLookup(cache, async (key) => ((await exists(key)) ? true : undefined));
  return async (key) => (await lookup(key)) === true;
}
