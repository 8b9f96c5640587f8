/**
 * @fileoverview Cumulative per-bucket totals kept on this machine. A bucket is
 * (UTC half-hour, source, model, project); a "group" is the same without the project, which is
 * the unit the server replaces on upload. The store remembers which groups changed in this run
 * so only those are queued.
 */
import { isRecord, readJson, writeJsonAtomic } from './json-file.js';
import { addInto, packCounts, unpackCounts, zeroCounts, type Counts } from './usage.js';

const SEP = '\u001f';

export interface BucketId {
  hourStart: number;
  source: string;
  model: string;
  project: string;
}

export function bucketKey(id: BucketId): string {
  return `${id.hourStart}${SEP}${id.source}${SEP}${id.model}${SEP}${id.project}`;
}

export function parseBucketKey(key: string): BucketId {
  const [h = '0', source = 'unknown', model = 'unknown', project = ''] = key.split(SEP);
  return { hourStart: Number(h), source, model, project };
}

/** The group (hour, source, model) a bucket key belongs to. */
export function groupOf(key: string): string {
  return key.slice(0, key.lastIndexOf(SEP));
}

export class BucketStore {
  private map: Map<string, Counts> | undefined;
  readonly changedGroups = new Set<string>();

  constructor(private readonly file: string) {}

  private load(): Map<string, Counts> {
    if (this.map !== undefined) return this.map;
    const map = new Map<string, Counts>();
    const raw = readJson(this.file);
    if (isRecord(raw) && Array.isArray(raw['b'])) {
      for (const row of raw['b']) {
        if (Array.isArray(row) && typeof row[0] === 'string') map.set(row[0], unpackCounts(row.slice(1) as number[]));
      }
    }
    this.map = map;
    return map;
  }

  add(key: string, counts: Counts, sign: 1 | -1 = 1): void {
    const map = this.load();
    let cur = map.get(key);
    if (cur === undefined) {
      cur = zeroCounts();
      map.set(key, cur);
    }
    addInto(cur, counts, sign);
    this.changedGroups.add(groupOf(key));
  }

  entries(): IterableIterator<[string, Counts]> {
    return this.load().entries();
  }

  /** Every bucket of each changed group, grouped. */
  changedVariants(): Map<string, [string, Counts][]> {
    const out = new Map<string, [string, Counts][]>();
    if (this.changedGroups.size === 0) return out;
    for (const [key, counts] of this.load()) {
      const g = groupOf(key);
      if (!this.changedGroups.has(g)) continue;
      let list = out.get(g);
      if (list === undefined) out.set(g, (list = []));
      list.push([key, counts]);
    }
    return out;
  }

  get loaded(): boolean {
    return this.map !== undefined;
  }

  /** Write the whole store to `file` (a new generation; see state.ts). */
  saveAs(file: string): void {
    const rows = [...this.load()].map(([k, c]) => [k, ...packCounts(c)]);
    writeJsonAtomic(file, { v: 1, b: rows });
  }
}
