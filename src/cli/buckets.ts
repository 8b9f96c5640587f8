/**
 * @fileoverview Cumulative per-bucket totals kept on this machine. A bucket is
 * (UTC half-hour, source, model, project); a "group" is the same without the project, which is
 * the unit the server replaces on upload. The store remembers which groups changed in this run
 * so only those are queued.
 */
import { isRecord, type PendingFile } from './json-file.js';
import { ShardSet } from './shards.js';
import { addInto, packCounts, unpackCounts, zeroCounts, type Counts } from './usage.js';

const SEP = '\u001f';
/** Separates a bucket key from the session it came from (a local-only suffix; see {@link BucketStore.add}). */
const SESSION_SEP = '\u001e';

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

/**
 * A bucket key that also names the session the usage came from. The engine counts records under
 * such keys (ledgers and cursors keep them), and the store files each addition both under the
 * plain bucket (what is uploaded) and under the session, so taking a record back (a replaced
 * file, a grown duplicate) takes it back from its session too: the session totals stay exact.
 */
export function withSession(key: string, session: string | undefined): string {
  if (session === undefined || session === '') return key;
  return `${key}${SESSION_SEP}${printable(session.length > 200 ? session.slice(0, 200) : session)}`;
}

/** A session id is an opaque local label: control characters (the key's separators among them) go. */
function printable(s: string): string {
  for (let i = 0; i < s.length; i += 1) {
    if (s.charCodeAt(i) < 0x20) return [...s].filter((ch) => ch.charCodeAt(0) >= 0x20).join('');
  }
  return s;
}

export interface SessionBucketId extends BucketId {
  session: string;
}

export function parseSessionKey(key: string): SessionBucketId {
  const i = key.indexOf(SESSION_SEP);
  return { ...parseBucketKey(i < 0 ? key : key.slice(0, i)), session: i < 0 ? '' : key.slice(i + 1) };
}

/** The group (hour, source, model) a bucket key belongs to. */
export function groupOf(key: string): string {
  return key.slice(0, key.lastIndexOf(SEP));
}

/** The UTC month (`YYYY-MM`) of a bucket key: the shard it is stored in. */
export function monthOf(key: string): string {
  const start = key.slice(0, key.indexOf(SEP));
  let month = monthCache.get(start);
  if (month === undefined) {
    month = new Date(Number(start)).toISOString().slice(0, 7);
    if (monthCache.size > 100_000) monthCache.clear();
    monthCache.set(start, month);
  }
  return month;
}

/** Half-hour start → month: a first read adds to the same few thousand half-hours millions of times. */
const monthCache = new Map<string, string>();

type Shard = Map<string, Counts>;

/** A key's bucket without the session, its UTC month and its group. */
interface KeyParts {
  plain: string;
  month: string;
  group: string;
}

function decodeShard(raw: unknown): Shard {
  const map: Shard = new Map();
  if (isRecord(raw) && Array.isArray(raw['b'])) {
    for (const row of raw['b']) {
      if (Array.isArray(row) && typeof row[0] === 'string') map.set(row[0], unpackCounts(row.slice(1) as number[]));
    }
  }
  return map;
}

function encodeShard(shard: Shard): string {
  return JSON.stringify({ v: 1, b: [...shard].map(([k, c]) => [k, ...packCounts(c)]) });
}

export class BucketStore {
  private readonly shards: ShardSet<Shard>;
  /** The same totals split by session (bucket key + session), by UTC month; never uploaded. */
  private readonly sessions: ShardSet<Shard>;
  readonly changedGroups = new Set<string>();
  /** What was added to each bucket since this store was opened (the sync's summary of new usage). */
  readonly delta = new Map<string, Counts>();
  private readonly keyParts = new Map<string, KeyParts>();

  /** @param files month → current file name, owned by the caller's state (see state.ts) */
  /** @param sessionFiles month → current session shard file, likewise */
  constructor(dir: string, files: Record<string, string>, sessionFiles: Record<string, string> = {}) {
    this.shards = new ShardSet(dir, files, 'buckets-', decodeShard, encodeShard);
    this.sessions = new ShardSet(dir, sessionFiles, 'sessions-', decodeShard, encodeShard);
  }

  /** Add to a bucket; a key made by {@link withSession} also adds to that session's totals. */
  add(key: string, counts: Counts, sign: 1 | -1 = 1): void {
    const k = this.parts(key);
    if (k.plain !== key) {
      addTo(this.sessions.get(k.month), key, counts, sign);
      this.sessions.markDirty(k.month);
    }
    addTo(this.shards.get(k.month), k.plain, counts, sign);
    let d = this.delta.get(k.plain);
    if (d === undefined) this.delta.set(k.plain, (d = zeroCounts()));
    addInto(d, counts, sign);
    this.shards.markDirty(k.month);
    this.changedGroups.add(k.group);
  }

  /** What a key names, worked out once per key: a first read adds to the same keys millions of times. */
  private parts(key: string): KeyParts {
    let k = this.keyParts.get(key);
    if (k === undefined) {
      const cut = key.indexOf(SESSION_SEP);
      const plain = cut >= 0 ? key.slice(0, cut) : key;
      k = { plain, month: monthOf(plain), group: groupOf(plain) };
      if (this.keyParts.size > 200_000) this.keyParts.clear();
      this.keyParts.set(key, k);
    }
    return k;
  }

  /** Every bucket (loads all months). */
  *entries(): IterableIterator<[string, Counts]> {
    for (const month of this.shards.ids()) yield* this.shards.get(month);
  }

  /** Every bucket split by session (keys as {@link withSession}; loads all months). */
  *sessionEntries(): IterableIterator<[string, Counts]> {
    for (const month of this.sessions.ids()) yield* this.sessions.get(month);
  }

  /** Every bucket of each changed group, grouped. */
  changedVariants(): Map<string, [string, Counts][]> {
    const out = new Map<string, [string, Counts][]>();
    const months = new Set([...this.changedGroups].map((g) => monthOf(g)));
    for (const month of months) {
      for (const [key, counts] of this.shards.get(month)) {
        const g = groupOf(key);
        if (!this.changedGroups.has(g)) continue;
        let list = out.get(g);
        if (list === undefined) out.set(g, (list = []));
        list.push([key, counts]);
      }
    }
    return out;
  }

  get isDirty(): boolean {
    return this.shards.isDirty || this.sessions.isDirty;
  }

  /** Add changed months' files under generation `gen` to `writes`; returns replaced file names. */
  saveDirty(gen: number, writes: PendingFile[]): string[] {
    this.changedGroups.clear();
    return [...this.shards.saveDirty(gen, writes), ...this.sessions.saveDirty(gen, writes)];
  }
}

function addTo(shard: Shard, key: string, counts: Counts, sign: 1 | -1): void {
  let cur = shard.get(key);
  if (cur === undefined) {
    cur = zeroCounts();
    shard.set(key, cur);
  }
  addInto(cur, counts, sign);
}
