/**
 * @fileoverview Values kept by (hour_start, source, model) — a group of buckets — by hour, then a
 * scan of that hour's few (source, model) pairs, rather than under a composite key string: ingest
 * looks groups up several times a bucket, and building and hashing a key string every time cost
 * more than the rest of the lookup. Iteration follows first insertion.
 */
/** A group of buckets: one (hour_start, source, model). */
export interface GroupKey {
  hourStart: number;
  source: string;
  model: string;
}

interface Entry<V> {
  readonly source: string;
  readonly model: string;
  readonly value: V;
}

export class GroupIndex<V> {
  private readonly byHour = new Map<number, Entry<V>[]>();
  private readonly inOrder: V[] = [];

  get(key: GroupKey): V | undefined {
    const entries = this.byHour.get(key.hourStart);
    if (entries === undefined) return undefined;
    for (const e of entries) if (e.source === key.source && e.model === key.model) return e.value;
    return undefined;
  }

  /** Stores `value` for a group that has none yet (a group already present keeps its value). */
  add(key: GroupKey, value: V): void {
    const entry = { source: key.source, model: key.model, value };
    const entries = this.byHour.get(key.hourStart);
    if (entries === undefined) this.byHour.set(key.hourStart, [entry]);
    else if (this.get(key) === undefined) entries.push(entry);
    else return;
    this.inOrder.push(value);
  }

  /** Every value, groups in first-insertion order. */
  values(): readonly V[] {
    return this.inOrder;
  }
}
