/**
 * @fileoverview The deduplication ledger of one agent: for every record id ever seen, the
 * bucket it was counted in and what it contributed. Seeing an id again (a streaming duplicate,
 * a copy in another file, a rewritten document) only adds the per-field growth, so re-reading
 * anything is idempotent. Records of one group (Claude message id) follow the sidechain rule: a
 * sidechain replay loses to the non-sidechain record of the same message. Only sources whose
 * wire counts are disjoint use a ledger (Codex adds deltas instead), so after a per-field
 * merge total is kept ≥ input + cached + output + reasoning.
 */
import { isRecord, readJson, writeJsonAtomic } from './json-file.js';
import type { BucketStore } from './buckets.js';
import { maxCounts, packCounts, sameCounts, unpackCounts, type Counts } from './usage.js';

interface Entry {
  bucket: string;
  counts: Counts;
  group?: string;
  sidechain?: boolean;
}

export type UpsertOutcome = 'new' | 'grew' | 'same' | 'replay';

export class Ledger {
  private entries: Map<string, Entry> | undefined;
  private groups = new Map<string, string[]>();
  dirty = false;

  constructor(private readonly file: string) {}

  private load(): Map<string, Entry> {
    if (this.entries !== undefined) return this.entries;
    const entries = new Map<string, Entry>();
    const raw = readJson(this.file);
    if (isRecord(raw) && isRecord(raw['e'])) {
      for (const [id, row] of Object.entries(raw['e'])) {
        if (!Array.isArray(row) || typeof row[0] !== 'string') continue;
        const e: Entry = { bucket: row[0], counts: unpackCounts(row.slice(1, 6) as number[]) };
        if (typeof row[6] === 'string') {
          e.group = row[6];
          this.indexGroup(row[6], id);
        }
        if (row[7] === 1) e.sidechain = true;
        entries.set(id, e);
      }
    }
    this.entries = entries;
    return entries;
  }

  private indexGroup(group: string, id: string): void {
    const list = this.groups.get(group);
    if (list === undefined) this.groups.set(group, [id]);
    else if (!list.includes(id)) list.push(id);
  }

  upsert(
    id: string,
    bucket: string,
    counts: Counts,
    opts: { group?: string | undefined; sidechain?: boolean | undefined },
    buckets: BucketStore,
  ): UpsertOutcome {
    const entries = this.load();
    const existing = entries.get(id);
    if (existing !== undefined) {
      const merged = maxCounts(existing.counts, counts);
      // every ledger source is disjoint on the wire: keep total covering the merged channels
      merged.total = Math.max(merged.total, merged.input + merged.cached + merged.output + merged.reasoning);
      if (sameCounts(merged, existing.counts)) return 'same';
      buckets.add(existing.bucket, existing.counts, -1);
      buckets.add(existing.bucket, merged);
      existing.counts = merged;
      this.dirty = true;
      return 'grew';
    }
    const group = opts.group;
    if (group !== undefined) {
      const siblings = (this.groups.get(group) ?? []).filter((s) => s !== id);
      if (opts.sidechain === true) {
        if (siblings.some((s) => entries.get(s)?.sidechain !== true)) return 'replay';
      } else {
        for (const s of siblings) {
          const sib = entries.get(s);
          if (sib?.sidechain === true) {
            // the replay was seen before its parent: the parent takes its place
            buckets.add(sib.bucket, sib.counts, -1);
            entries.delete(s);
            this.groups.set(group, (this.groups.get(group) ?? []).filter((x) => x !== s));
          }
        }
      }
      this.indexGroup(group, id);
    }
    const e: Entry = { bucket, counts: { ...counts } };
    if (group !== undefined) e.group = group;
    if (opts.sidechain === true) e.sidechain = true;
    entries.set(id, e);
    buckets.add(bucket, counts);
    this.dirty = true;
    return 'new';
  }

  /** Write the whole ledger to `file` (a new generation; see state.ts). */
  saveAs(file: string): void {
    if (this.entries === undefined) return;
    const out: Record<string, unknown[]> = {};
    for (const [id, e] of this.entries) {
      const row: unknown[] = [e.bucket, ...packCounts(e.counts)];
      if (e.group !== undefined) row.push(e.group, e.sidechain === true ? 1 : 0);
      out[id] = row;
    }
    writeJsonAtomic(file, { v: 1, e: out });
    this.dirty = false;
  }
}
