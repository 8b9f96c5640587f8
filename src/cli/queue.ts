/**
 * @fileoverview The durable upload queue. Each line of `queue.jsonl` is one group
 * (hour, source, model) with all of its project variants as absolute totals, because the server
 * replaces a group's whole variant set per request: a group's variants always travel together.
 * `queue.json` holds the byte offset of the first line not yet accepted by the server. Appends
 * are fsynced before the local state commits, so a crash never loses a change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseBucketKey } from './buckets.js';
import { isRecord, readJson, writeFileAtomic, writeJsonAtomic } from './json-file.js';
import type { Counts } from './usage.js';

/** One bucket as sent to POST /functions/svc-ingest (see docs/wire-format.md). */
export interface WireBucket {
  hour_start: string;
  source: string;
  model: string;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
  project_key?: string;
  project_ref?: string;
}

export interface QueuedGroup {
  g: string;
  b: WireBucket[];
}

function wire(hourStart: number, source: string, model: string, c: Counts): WireBucket {
  return {
    hour_start: new Date(hourStart).toISOString(),
    source,
    model,
    input_tokens: c.input,
    cached_input_tokens: c.cached,
    output_tokens: c.output,
    reasoning_output_tokens: c.reasoning,
    total_tokens: c.total,
  };
}

/**
 * The wire buckets of one group: one per project variant when projects are on, else a single
 * bucket summing the variants (totals are equal either way).
 */
export function groupToWire(
  variants: readonly (readonly [string, Counts])[],
  projects: boolean,
  refs: ReadonlyMap<string, string>,
): WireBucket[] {
  const first = variants[0];
  if (first === undefined) return [];
  const id = parseBucketKey(first[0]);
  if (!projects) {
    const sum: Counts = { input: 0, cached: 0, output: 0, reasoning: 0, total: 0 };
    for (const [, c] of variants) {
      sum.input += c.input;
      sum.cached += c.cached;
      sum.output += c.output;
      sum.reasoning += c.reasoning;
      sum.total += c.total;
    }
    return [wire(id.hourStart, id.source, id.model, sum)];
  }
  return variants.map(([key, c]) => {
    const b = wire(id.hourStart, id.source, id.model, c);
    const project = parseBucketKey(key).project;
    if (project !== '') {
      b.project_key = project;
      const ref = refs.get(project);
      if (ref !== undefined) b.project_ref = ref;
    }
    return b;
  });
}

/** Past this size an append rewrites the queue without superseded group versions. */
const COMPACT_BYTES = 8 * 1024 * 1024;

export class UploadQueue {
  private readonly file: string;
  private readonly stateFile: string;

  constructor(dir: string) {
    this.file = path.join(dir, 'queue.jsonl');
    this.stateFile = path.join(dir, 'queue.json');
  }

  append(groups: readonly QueuedGroup[]): void {
    if (groups.length === 0) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const fd = fs.openSync(this.file, 'a', 0o600);
    let size: number;
    try {
      fs.writeSync(fd, groups.map((g) => JSON.stringify(g)).join('\n') + '\n');
      fs.fsyncSync(fd);
      size = fs.fstatSync(fd).size;
    } finally {
      fs.closeSync(fd);
    }
    // Never linked, or offline for long: keep only the latest version of each group.
    if (size > COMPACT_BYTES) this.compactTo(this.pending());
  }

  private offset(): number {
    const raw = readJson(this.stateFile);
    return isRecord(raw) && typeof raw['offset'] === 'number' ? raw['offset'] : 0;
  }

  /** Pending groups, the latest version of each group only, oldest first. */
  pending(): QueuedGroup[] {
    let text: string;
    try {
      const buf = fs.readFileSync(this.file);
      text = buf.toString('utf8', Math.min(this.offset(), buf.length));
    } catch {
      return [];
    }
    const latest = new Map<string, QueuedGroup>();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const g = JSON.parse(line) as unknown;
        if (isRecord(g) && typeof g['g'] === 'string' && Array.isArray(g['b'])) {
          latest.delete(g['g']);
          latest.set(g['g'], g as unknown as QueuedGroup);
        }
      } catch {
        // a torn last line from a crash mid-append: its change is re-queued by the next scan
      }
    }
    return [...latest.values()];
  }

  /** Number of pending buckets (after collapsing repeated groups). */
  size(): number {
    return this.pending().reduce((n, g) => n + g.b.length, 0);
  }

  /**
   * Rewrite the queue as exactly `groups` (deduplicated) from offset 0, then let `ack(n)` mark
   * the first n groups as accepted.
   */
  compactTo(groups: readonly QueuedGroup[]): { ack: (count: number) => void } {
    const lines = groups.map((g) => JSON.stringify(g) + '\n');
    writeFileAtomic(this.file, lines.join(''), 0o600);
    writeJsonAtomic(this.stateFile, { offset: 0 });
    const ends: number[] = [];
    let pos = 0;
    for (const l of lines) {
      pos += Buffer.byteLength(l);
      ends.push(pos);
    }
    return {
      ack: (count: number) => {
        if (count >= groups.length) {
          writeFileAtomic(this.file, '', 0o600);
          writeJsonAtomic(this.stateFile, { offset: 0 });
        } else if (count > 0) {
          writeJsonAtomic(this.stateFile, { offset: ends[count - 1] ?? 0 });
        }
      },
    };
  }
}
