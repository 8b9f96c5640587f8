/**
 * @fileoverview The local sync state: per-file cursors, the bucket store and the per-agent
 * ledgers. They must move together (a cursor that advanced without its buckets would double
 * count), so new bucket and ledger files are written under a new generation number and
 * `state.json` — holding the cursors and naming the current files — is replaced last, as the
 * single commit point. A crash before it leaves the previous generation intact.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BucketStore } from './buckets.js';
import {
  isRecord,
  readJson,
  writeFilesDurably,
  writeFilesDurablySync,
  writeJsonAtomic,
  type PendingFile,
} from './json-file.js';
import { Ledger } from './ledger.js';

/** The last file per agent that held malformed lines, and how many in that pass (`status` names it). */
export type MalformedFiles = Record<string, { file: string; lines: number; at: string }>;
import type { PackedCounts } from './usage.js';

export interface Cursor {
  agent: string;
  ino: number;
  size: number;
  mtimeMs: number;
  offset: number;
  /** size:mtime of companion files (SQLite -wal). */
  companions?: string;
  /** The parser's running state. */
  state?: unknown;
  /** What `add` records of this file put into each bucket (so a re-read can take it back). */
  contrib?: Record<string, PackedCounts>;
}

export interface SyncMeta {
  lastSyncAt?: string;
  lastUploadAt?: string;
  lastResult?: string;
  /** Lines skipped as malformed per agent, summed over all syncs. */
  malformed?: Record<string, number>;
  /** The last file per agent that held a malformed line. */
  malformedFiles?: MalformedFiles;
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

export class LocalState {
  readonly cursors: Record<string, Cursor>;
  meta: SyncMeta;
  /** project key → credential-free https URL, for every project ever attributed */
  readonly projectRefs: Record<string, string>;
  private gen: number;
  /** month → bucket shard file */
  private readonly bucketFiles: Record<string, string>;
  /** month → per-session bucket shard file (report --by session) */
  private readonly sessionFiles: Record<string, string>;
  /** agent → (shard → ledger shard file) */
  private readonly ledgerFiles: Record<string, Record<string, string>>;
  private bucketStore: BucketStore | undefined;
  private ledgers = new Map<string, Ledger>();

  /** Set by whoever changes cursors or project refs; buckets and ledgers track their own. */
  dirty = false;

  constructor(private readonly dir: string) {
    const raw = readJson(path.join(dir, 'state.json'));
    const obj = isRecord(raw) && raw['v'] === 2 ? raw : {};
    this.cursors = isRecord(obj['cursors']) ? (obj['cursors'] as Record<string, Cursor>) : {};
    const meta = readJson(path.join(dir, 'meta.json'));
    this.meta = isRecord(meta) ? (meta as SyncMeta) : {};
    this.projectRefs = stringMap(obj['projects']);
    this.gen = typeof obj['gen'] === 'number' ? obj['gen'] : 0;
    this.bucketFiles = stringMap(obj['buckets']);
    this.sessionFiles = stringMap(obj['sessions']);
    this.ledgerFiles = {};
    if (isRecord(obj['ledgers']))
      for (const [agent, files] of Object.entries(obj['ledgers'])) this.ledgerFiles[agent] = stringMap(files);
  }

  get buckets(): BucketStore {
    this.bucketStore ??= new BucketStore(this.dir, this.bucketFiles, this.sessionFiles);
    return this.bucketStore;
  }

  ledger(agent: string): Ledger {
    let l = this.ledgers.get(agent);
    if (l === undefined) {
      this.ledgerFiles[agent] ??= {};
      l = new Ledger(this.dir, agent, this.ledgerFiles[agent]);
      this.ledgers.set(agent, l);
    }
    return l;
  }

  /**
   * Persist everything that changed, atomically as a whole (nothing when nothing changed): the
   * changed shards under a new generation's file names, then `state.json` naming them, the one
   * commit point. Flushes one file after another; the commands use {@link commitAsync}.
   */
  commit(): void {
    const next = this.pendingCommit();
    if (next === undefined) return writeJsonAtomic(path.join(this.dir, 'meta.json'), this.meta);
    writeFilesDurablySync(next.writes);
    this.finishCommit(next.obsolete);
  }

  /** {@link commit}, flushing the shard files side by side (a first read writes hundreds). */
  async commitAsync(): Promise<void> {
    const next = this.pendingCommit();
    if (next === undefined) return writeJsonAtomic(path.join(this.dir, 'meta.json'), this.meta);
    await writeFilesDurably(next.writes);
    this.finishCommit(next.obsolete);
  }

  /** The files of the next generation (with meta.json) and the ones they replace; undefined when nothing changed. */
  private pendingCommit(): { writes: PendingFile[]; obsolete: string[] } | undefined {
    const ledgersDirty = [...this.ledgers.values()].some((l) => l.isDirty);
    const bucketsDirty = this.bucketStore?.isDirty === true;
    if (!this.dirty && !ledgersDirty && !bucketsDirty) return undefined;
    this.gen += 1;
    // new shard files first (the shard maps are updated in place), then the commit point
    const writes: PendingFile[] = [{ file: path.join(this.dir, 'meta.json'), text: JSON.stringify(this.meta) }];
    const obsolete: string[] = [...(this.bucketStore?.saveDirty(this.gen, writes) ?? [])];
    for (const l of this.ledgers.values()) obsolete.push(...l.saveDirty(this.gen, writes));
    return { writes, obsolete };
  }

  private finishCommit(obsolete: readonly string[]): void {
    writeJsonAtomic(path.join(this.dir, 'state.json'), {
      v: 2,
      gen: this.gen,
      buckets: this.bucketFiles,
      sessions: this.sessionFiles,
      ledgers: this.ledgerFiles,
      projects: this.projectRefs,
      cursors: this.cursors,
    });
    this.dirty = false;
    for (const name of obsolete) {
      try {
        fs.unlinkSync(path.join(this.dir, name));
      } catch {
        // already gone
      }
    }
  }
}
