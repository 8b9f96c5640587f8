/**
 * @fileoverview A group's buckets by project key: a scan while there are few (nearly always one or
 * two: a scan beats building a map), a map past that, since an upload may carry up to 500 projects in
 * one group and a scan would make that quadratic. Used where ingest matches project variants:
 * normalisation's duplicates and the plan's stored-against-uploaded variants.
 */
const SCAN_LIMIT = 8;

export class ByProject<T extends { readonly projectKey: string }> {
  private readonly list: T[] = [];
  private map: Map<string, T> | undefined;

  constructor(items: readonly T[] = []) {
    for (const item of items) this.put(item);
  }

  find(projectKey: string): T | undefined {
    if (this.map !== undefined) return this.map.get(projectKey);
    for (const item of this.list) if (item.projectKey === projectKey) return item;
    return undefined;
  }

  /** Adds `item`, replacing the one with its project key; answers the one replaced. */
  put(item: T): T | undefined {
    if (this.map !== undefined) {
      const replaced = this.map.get(item.projectKey);
      this.map.set(item.projectKey, item);
      return replaced;
    }
    const at = this.list.findIndex((v) => v.projectKey === item.projectKey);
    if (at !== -1) {
      const replaced = this.list[at];
      this.list[at] = item;
      return replaced;
    }
    this.list.push(item);
    if (this.list.length > SCAN_LIMIT) this.map = new Map(this.list.map((v) => [v.projectKey, v]));
    return undefined;
  }
}
