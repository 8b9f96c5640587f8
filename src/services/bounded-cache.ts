/** @fileoverview A bounded map for read caches: emptied when full (its entries are cheap to read again). */
export class BoundedCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V): void {
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, value);
  }
  clear(): void {
    this.map.clear();
  }
}
