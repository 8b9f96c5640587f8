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
import { isRecord, readJson, writeJsonAtomic } from './json-file.js';
import { Ledger } from './ledger.js';
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
}

export class LocalState {
  readonly cursors: Record<string, Cursor>;
  meta: SyncMeta;
  /** project key → credential-free https URL, for every project ever attributed */
  readonly projectRefs: Record<string, string>;
  private gen: number;
  private bucketsName: string;
  private ledgerNames: Record<string, string>;
  private bucketStore: BucketStore | undefined;
  private ledgers = new Map<string, Ledger>();

  /** Set by whoever changes cursors or project refs; buckets and ledgers track their own. */
  dirty = false;

  constructor(private readonly dir: string) {
    const raw = readJson(path.join(dir, 'state.json'));
    const obj = isRecord(raw) ? raw : {};
    this.cursors = isRecord(obj['cursors']) ? (obj['cursors'] as Record<string, Cursor>) : {};
    const meta = readJson(path.join(dir, 'meta.json'));
    this.meta = isRecord(meta) ? (meta as SyncMeta) : {};
    this.projectRefs = isRecord(obj['projects']) ? (obj['projects'] as Record<string, string>) : {};
    this.gen = typeof obj['gen'] === 'number' ? obj['gen'] : 0;
    this.bucketsName = typeof obj['buckets'] === 'string' ? obj['buckets'] : 'buckets.0.json';
    this.ledgerNames = isRecord(obj['ledgers']) ? (obj['ledgers'] as Record<string, string>) : {};
  }

  get buckets(): BucketStore {
    this.bucketStore ??= new BucketStore(path.join(this.dir, this.bucketsName));
    return this.bucketStore;
  }

  ledger(agent: string): Ledger {
    let l = this.ledgers.get(agent);
    if (l === undefined) {
      l = new Ledger(path.join(this.dir, this.ledgerNames[agent] ?? `ledger-${agent}.0.json`));
      this.ledgers.set(agent, l);
    }
    return l;
  }

  /** Persist everything that changed, atomically as a whole (nothing when nothing changed). */
  commit(): void {
    writeJsonAtomic(path.join(this.dir, 'meta.json'), this.meta);
    const ledgersDirty = [...this.ledgers.values()].some((l) => l.dirty);
    const bucketsDirty = this.bucketStore?.loaded === true && this.bucketStore.changedGroups.size > 0;
    if (!this.dirty && !ledgersDirty && !bucketsDirty) return;
    const next = this.gen + 1;
    const obsolete: string[] = [];
    if (this.bucketStore?.loaded === true && this.bucketStore.changedGroups.size > 0) {
      const name = `buckets.${next}.json`;
      this.bucketStore.saveAs(path.join(this.dir, name));
      this.bucketStore.changedGroups.clear();
      obsolete.push(this.bucketsName);
      this.bucketsName = name;
    }
    for (const [agent, l] of this.ledgers) {
      if (!l.dirty) continue;
      const name = `ledger-${agent}.${next}.json`;
      l.saveAs(path.join(this.dir, name));
      if (this.ledgerNames[agent] !== undefined) obsolete.push(this.ledgerNames[agent]);
      this.ledgerNames[agent] = name;
    }
    this.gen = next;
    writeJsonAtomic(path.join(this.dir, 'state.json'), {
      v: 1,
      gen: this.gen,
      buckets: this.bucketsName,
      ledgers: this.ledgerNames,
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
