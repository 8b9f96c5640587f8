/**
 * @fileoverview Lazily loaded, separately saved shards of a JSON-backed map. The bucket store
 * is sharded by UTC month and each ledger by a hash of the record's group, so a sync that
 * touches today's usage reads and rewrites a few small files instead of all of history.
 * File names carry the state generation; `state.json` (see state.ts) names the current file
 * of every shard and is the single commit point.
 */
import path from 'node:path';
import { readJson, type PendingFile } from './json-file.js';

export class ShardSet<T> {
  private readonly loaded = new Map<string, T>();
  private readonly dirty = new Set<string>();

  /**
   * @param files shard id → current file name (relative to `dir`); updated by {@link saveDirty}
   * @param decode builds a shard from its file's JSON (`undefined` when the file is missing)
   * @param encode the JSON text to write for a shard
   */
  constructor(
    private readonly dir: string,
    readonly files: Record<string, string>,
    private readonly prefix: string,
    private readonly decode: (raw: unknown) => T,
    private readonly encode: (shard: T) => string,
  ) {}

  get(id: string): T {
    let shard = this.loaded.get(id);
    if (shard === undefined) {
      const name = this.files[id];
      shard = this.decode(name === undefined ? undefined : readJson(path.join(this.dir, name)));
      this.loaded.set(id, shard);
    }
    return shard;
  }

  markDirty(id: string): void {
    this.dirty.add(id);
  }

  get isDirty(): boolean {
    return this.dirty.size > 0;
  }

  /** Every shard id that exists on disk or in memory. */
  ids(): string[] {
    return [...new Set([...Object.keys(this.files), ...this.loaded.keys()])].sort();
  }

  /**
   * Add each dirty shard's file under generation `gen` to `writes` (the caller writes them all
   * before its commit point); returns the file names they replace.
   */
  saveDirty(gen: number, writes: PendingFile[]): string[] {
    const obsolete: string[] = [];
    for (const id of this.dirty) {
      const shard = this.loaded.get(id);
      if (shard === undefined) continue;
      const name = `${this.prefix}${id}.${gen}.json`;
      writes.push({ file: path.join(this.dir, name), text: this.encode(shard) });
      const old = this.files[id];
      if (old !== undefined && old !== name) obsolete.push(old);
      this.files[id] = name;
    }
    this.dirty.clear();
    return obsolete;
  }
}
