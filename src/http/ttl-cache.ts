/** @fileoverview A small bounded cache whose entries expire: for hot credential lookups. */
import type { Clock } from '../clock.js';

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

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

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches (e.g. the credentials of a deleted account). */
  forgetWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  /** Forgets everything (e.g. sessions just ended in this process). */
  clear(): void {
    this.entries.clear();
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.clock.now() + this.ttlMs });
  }
}

/** Memoises a lookup for `ttlMs`; misses (undefined) are not cached, so a new credential works at once. */
export function cachedLookup<V>(cache: TtlCache<V>, lookup: (key: string) => Promise<V | undefined>) {
  return async (key: string): Promise<V | undefined> => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = await lookup(key);
    if (value !== undefined) cache.set(key, value);
    return value;
  };
}
