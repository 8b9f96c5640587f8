/**
 * @fileoverview The deduplication ledger of one agent: for every record id ever seen, the
 * bucket it was counted in and what it contributed. Seeing an id again (a streaming duplicate,
 * a copy in another file, a rewritten document) only adds the per-field growth, so re-reading
 * anything is idempotent. Records of one group (Claude message id) follow the sidechain rule: a
 * sidechain replay loses to the non-sidechain record of the same message. Only sources whose
 * wire counts are disjoint use a ledger (Codex adds deltas instead), so after a per-field
 * merge total is kept ≥ input + cached + output + reasoning. The ledger is split into 32
 * shards by a hash of the record's group (or id), so a small sync loads and rewrites a few
 * small files; records of one group always share a shard.
 */
import { isRecord } from './json-file.js';
import type { BucketStore } from './buckets.js';
import { ShardSet } from './shards.js';
import { maxCounts, packCounts, sameCounts, unpackCounts, type Counts } from './usage.js';

const SHARDS = 32;

interface Entry {
  bucket: string;
  counts: Counts;
  group?: string;
  sidechain?: boolean;
}

interface Shard {
  entries: Map<string, Entry>;
  groups: Map<string, string[]>;
}

export type UpsertOutcome = 'new' | 'grew' | 'same' | 'replay';

/** FNV-1a of a string, as a two-digit shard id. */
export function shardOf(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return String((h >>> 0) % SHARDS).padStart(2, '0');
}

function indexGroup(shard: Shard, group: string, id: string): void {
  const list = shard.groups.get(group);
  if (list === undefined) shard.groups.set(group, [id]);
  else if (!list.includes(id)) list.push(id);
}

function decodeShard(raw: unknown): Shard {
  const shard: Shard = { entries: new Map(), groups: new Map() };
  if (isRecord(raw) && isRecord(raw['e'])) {
    for (const [id, row] of Object.entries(raw['e'])) {
      if (!Array.isArray(row) || typeof row[0] !== 'string') continue;
      const e: Entry = { bucket: row[0], counts: unpackCounts(row.slice(1, 6) as number[]) };
      if (typeof row[6] === 'string') {
        e.group = row[6];
        indexGroup(shard, row[6], id);
      }
      if (row[7] === 1) e.sidechain = true;
      shard.entries.set(id, e);
    }
  }
  return shard;
}

function encodeShard(shard: Shard): unknown {
  const out: Record<string, unknown[]> = {};
  for (const [id, e] of shard.entries) {
    const row: unknown[] = [e.bucket, ...packCounts(e.counts)];
    if (e.group !== undefined) row.push(e.group, e.sidechain === true ? 1 : 0);
    out[id] = row;
  }
  return { v: 1, e: out };
}

export class Ledger {
  private readonly shards: ShardSet<Shard>;

  /** @param files shard id → current file name, owned by the caller's state (see state.ts) */
  constructor(dir: string, agent: string, files: Record<string, string>) {
    this.shards = new ShardSet(dir, files, `ledger-${agent}-`, decodeShard, encodeShard);
  }

  get isDirty(): boolean {
    return this.shards.isDirty;
  }

  /** Write changed shards under generation `gen`; returns replaced file names. */
  saveDirty(gen: number): string[] {
    return this.shards.saveDirty(gen);
  }

  upsert(
    id: string,
    bucket: string,
    counts: Counts,
    opts: { group?: string | undefined; sidechain?: boolean | undefined },
    buckets: BucketStore,
  ): UpsertOutcome {
    const shardId = shardOf(opts.group ?? id);
    const shard = this.shards.get(shardId);
    const entries = shard.entries;
    const existing = entries.get(id);
    if (existing !== undefined) {
      const merged = maxCounts(existing.counts, counts);
      // every ledger source is disjoint on the wire: keep total covering the merged channels
      merged.total = Math.max(merged.total, merged.input + merged.cached + merged.output + merged.reasoning);
      if (sameCounts(merged, existing.counts)) return 'same';
      buckets.add(existing.bucket, existing.counts, -1);
      buckets.add(existing.bucket, merged);
      existing.counts = merged;
      this.shards.markDirty(shardId);
      return 'grew';
    }
    const group = opts.group;
    if (group !== undefined) {
      const siblings = (shard.groups.get(group) ?? []).filter((s) => s !== id);
      if (opts.sidechain === true) {
        if (siblings.some((s) => entries.get(s)?.sidechain !== true)) return 'replay';
      } else {
        for (const s of siblings) {
          const sib = entries.get(s);
          if (sib?.sidechain === true) {
            // the replay was seen before its parent: the parent takes its place
            buckets.add(sib.bucket, sib.counts, -1);
            entries.delete(s);
            shard.groups.set(group, (shard.groups.get(group) ?? []).filter((x) => x !== s));
          }
        }
      }
      indexGroup(shard, group, id);
    }
    const e: Entry = { bucket, counts: { ...counts } };
    if (group !== undefined) e.group = group;
    if (opts.sidechain === true) e.sidechain = true;
    entries.set(id, e);
    buckets.add(bucket, counts);
    this.shards.markDirty(shardId);
    return 'new';
  }
}
