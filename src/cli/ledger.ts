/**
 * @fileoverview The deduplication ledger of one agent: for every record id ever seen, the
 * bucket it was counted in and what it contributed. Seeing an id again (a streaming duplicate,
 * a copy in another file, a rewritten document) only adds the per-field growth, so re-reading
 * anything is idempotent. Records of one group (Claude message id) follow the sidechain rule: a
 * sidechain record counts only while no main-chain record of the same message is known (else it
 * is a `/btw` replay); replays are kept, not forgotten, so the result depends only on the set
 * of lines seen, never on the order files are read in. Only sources whose
 * wire counts are disjoint use a ledger (Codex adds deltas instead), so after a per-field
 * merge total is kept ≥ input + cached + output + reasoning. The ledger is split into 32
 * shards by a hash of the record's group (or id), so a small sync loads and rewrites a few
 * small files; records of one group always share a shard.
 */
import { isRecord, type PendingFile } from './json-file.js';
import type { BucketStore } from './buckets.js';
import { ShardSet } from './shards.js';
import { maxCounts, sameCounts, unpackCounts, type Counts } from './usage.js';

const SHARDS = 32;
/** The shard ids, made once (a first read looks one up per record). */
const SHARD_IDS: readonly string[] = Array.from({ length: SHARDS }, (_, i) => String(i).padStart(2, '0'));

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
  return SHARD_IDS[(h >>> 0) % SHARDS] as string;
}

function indexGroup(shard: Shard, group: string, id: string): void {
  const list = shard.groups.get(group);
  if (list === undefined) shard.groups.set(group, [id]);
  else if (!list.includes(id)) list.push(id);
}

/**
 * A shard file. Version 2 lists its entries as rows `[id, bucket, input, cached, output,
 * reasoning, total, group?, sidechain?]`, the bucket by its index in `b` (a bucket key is about
 * 100 characters and a shard's entries share a few hundred of them) and a group that is the id's
 * own prefix (Claude's `message id␀request id`) as 0: half the bytes of version 1 (an object of
 * id → row naming both in full), and a third of its time to write on a first read. Version 1
 * files are still read.
 */
function decodeShard(raw: unknown): Shard {
  const shard: Shard = { entries: new Map(), groups: new Map() };
  if (!isRecord(raw)) return shard;
  if (raw['v'] === 2 && Array.isArray(raw['b']) && Array.isArray(raw['r'])) {
    const table = raw['b'] as unknown[];
    for (const row of raw['r'] as unknown[]) {
      if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'number') continue;
      const id = row[0];
      addEntry(shard, id, table[row[1]], row.slice(2, 7) as number[], row[7] === 0 ? groupPrefix(id) : row[7], row[8]);
    }
  } else if (isRecord(raw['e'])) {
    for (const [id, row] of Object.entries(raw['e']))
      if (Array.isArray(row)) addEntry(shard, id, row[0], row.slice(1, 6) as number[], row[6], row[7]);
  }
  return shard;
}

function addEntry(
  shard: Shard,
  id: string,
  bucket: unknown,
  counts: number[],
  group: unknown,
  sidechain: unknown,
): void {
  if (typeof bucket !== 'string') return;
  const e: Entry = { bucket, counts: unpackCounts(counts) };
  if (typeof group === 'string') {
    e.group = group;
    indexGroup(shard, group, id);
  }
  if (sidechain === 1) e.sidechain = true;
  shard.entries.set(id, e);
}

/** The part of `id` before its first NUL (the whole id when it has none). */
function groupPrefix(id: string): string {
  const nul = id.indexOf('\u0000');
  return nul === -1 ? id : id.slice(0, nul);
}

function encodeShard(shard: Shard): string {
  const table: string[] = [];
  const index = new Map<string, number>();
  const rows: unknown[][] = [];
  for (const [id, e] of shard.entries) {
    let b = index.get(e.bucket);
    if (b === undefined) {
      b = table.push(e.bucket) - 1;
      index.set(e.bucket, b);
    }
    const c = e.counts;
    if (e.group === undefined) rows.push([id, b, c.input, c.cached, c.output, c.reasoning, c.total]);
    else {
      const own = e.group.length < id.length && id.charCodeAt(e.group.length) === 0 && id.startsWith(e.group);
      rows.push([id, b, c.input, c.cached, c.output, c.reasoning, c.total, own ? 0 : e.group, e.sidechain ? 1 : 0]);
    }
  }
  return JSON.stringify({ v: 2, b: table, r: rows });
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

  /** Add changed shards' files under generation `gen` to `writes`; returns replaced file names. */
  saveDirty(gen: number, writes: PendingFile[]): string[] {
    return this.shards.saveDirty(gen, writes);
  }

  upsert(
    id: string,
    bucket: string,
    counts: Counts,
    opts: { group?: string | undefined; sidechain?: boolean | undefined },
    buckets: BucketStore,
  ): UpsertOutcome {
    const group = opts.group;
    const shardId = shardOf(group ?? id);
    const shard = this.shards.get(shardId);
    const members = group !== undefined ? shard.groups.get(group) : undefined;
    if (members === undefined || (members.length === 1 && members[0] === id)) {
      return this.upsertAlone(shard, shardId, id, bucket, counts, opts, buckets);
    }
    const ids = members.includes(id) ? members : [...members, id];
    const before = contributions(shard, ids);

    const existing = shard.entries.get(id);
    let outcome: UpsertOutcome;
    if (existing !== undefined) {
      const merged = maxCounts(existing.counts, counts);
      // every ledger source is disjoint on the wire: keep total covering the merged channels
      merged.total = Math.max(merged.total, merged.input + merged.cached + merged.output + merged.reasoning);
      const grew = !sameCounts(merged, existing.counts);
      existing.counts = merged;
      // a record is a sidechain only if every copy of it was (a copy in a main chain makes it a parent)
      const flipped = existing.sidechain === true && opts.sidechain !== true;
      if (flipped) delete existing.sidechain;
      if (!grew && !flipped) return 'same';
      outcome = 'grew';
    } else {
      const e: Entry = { bucket, counts: { ...counts } };
      if (group !== undefined) {
        e.group = group;
        indexGroup(shard, group, id);
      }
      if (opts.sidechain === true) e.sidechain = true;
      shard.entries.set(id, e);
      outcome = 'new';
    }
    const after = contributions(shard, ids);
    for (const [entryId, c] of before) buckets.add((shard.entries.get(entryId) as Entry).bucket, c, -1);
    for (const [entryId, c] of after) buckets.add((shard.entries.get(entryId) as Entry).bucket, c);
    this.shards.markDirty(shardId);
    if (outcome === 'new' && !after.has(id)) return 'replay';
    return outcome;
  }

  /**
   * {@link upsert} of a record alone in its group (or without one), the usual case: it always
   * counts whole (a sidechain record counts while its group has no main-chain record), so its
   * bucket gains exactly its growth.
   */
  private upsertAlone(
    shard: Shard,
    shardId: string,
    id: string,
    bucket: string,
    counts: Counts,
    opts: { group?: string | undefined; sidechain?: boolean | undefined },
    buckets: BucketStore,
  ): UpsertOutcome {
    const existing = shard.entries.get(id);
    if (existing === undefined) {
      const e: Entry = { bucket, counts: { ...counts } };
      if (opts.group !== undefined) {
        e.group = opts.group;
        indexGroup(shard, opts.group, id);
      }
      if (opts.sidechain === true) e.sidechain = true;
      shard.entries.set(id, e);
      buckets.add(bucket, counts);
      this.shards.markDirty(shardId);
      return 'new';
    }
    const old = existing.counts;
    const merged = maxCounts(old, counts);
    merged.total = Math.max(merged.total, merged.input + merged.cached + merged.output + merged.reasoning);
    const grew = !sameCounts(merged, old);
    const flipped = existing.sidechain === true && opts.sidechain !== true;
    if (flipped) delete existing.sidechain;
    if (!grew && !flipped) return 'same';
    existing.counts = merged;
    if (grew) {
      buckets.add(existing.bucket, {
        input: merged.input - old.input,
        cached: merged.cached - old.cached,
        output: merged.output - old.output,
        reasoning: merged.reasoning - old.reasoning,
        total: merged.total - old.total,
      });
    }
    this.shards.markDirty(shardId);
    return 'grew';
  }
}

/**
 * What each record of a group contributes: a sidechain record counts only while its group has
 * no main-chain record (then it is a `/btw`-style replay of that parent). A pure function of
 * the records seen, so the totals do not depend on the order files are read in.
 */
function contributions(shard: Shard, ids: readonly string[]): Map<string, Counts> {
  const out = new Map<string, Counts>();
  const hasParent = ids.some((i) => {
    const e = shard.entries.get(i);
    return e !== undefined && e.sidechain !== true;
  });
  for (const i of ids) {
    const e = shard.entries.get(i);
    if (e === undefined) continue;
    if (e.sidechain === true && hasParent) continue;
    out.set(i, { ...e.counts });
  }
  return out;
}
