/**
 * @fileoverview The incremental scan: for each agent, find its files, skip those whose
 * (inode, size, mtime) did not change, hand the rest to the parser from the saved offset, and
 * fold what it reports into the bucket store (via the ledger for records with ids). Returns
 * per-agent counters; the caller commits the state and queues the changed groups.
 */
import fs from 'node:fs';
import { bucketKey, withSession } from './buckets.js';
import type { AgentRoots } from './paths.js';
import type { AgentParser, LogFile, ParseStart, RecordSink } from './parsers/types.js';
import { ProjectResolver } from './project.js';
import { parseInto, replayPacked, type ReadEnd } from './read-events.js';
import { startParallelReads, type ParallelOptions, type ParallelReads } from './read-pool.js';
import type { Cursor, LocalState } from './state.js';
import { addInto, halfHourStart, isAcceptedInstant, packCounts, unpackCounts, type UsageRecord } from './usage.js';

export interface AgentSummary {
  files: number;
  changed: number;
  records: number;
  malformed: number;
  skipped: number;
  bytes: number;
  /** Files found but unreadable by this installation, with what to do (re-tried every sync). */
  unavailable?: string[];
}

export interface ScanResult {
  agents: Record<string, AgentSummary>;
  bytesRead: number;
  changedGroups: number;
  /** Worker threads that read files (0: read on the calling thread). */
  threads: number;
  /** Files whose read came from a worker thread. */
  workerReads: number;
}

export interface ScanOptions {
  roots: AgentRoots;
  state: LocalState;
  parsers: readonly AgentParser[];
  now: number;
  /** Called once with the bytes to read, then with progress. */
  onPlan?: (totalBytes: number, files: number) => void;
  onProgress?: (doneBytes: number) => void;
  /** Called for each file that held malformed lines (or failed to parse), whichever thread read it. */
  onMalformed?: (agent: string, file: string, lines: number) => void;
  /** When to read on worker threads (default: large reads on multi-core machines; see read-pool.ts). */
  parallel?: ParallelOptions;
}

interface Planned {
  parser: AgentParser;
  file: LogFile;
  files: readonly LogFile[];
  stat: fs.Stats;
  companions: string | undefined;
  cursor: Cursor | undefined;
  /** Continue from the cursor's offset (else the file is read from the start). */
  resume: boolean;
  start: ParseStart;
  /** Bytes this pass reads. */
  bytes: number;
}

function planned(
  parser: AgentParser,
  file: LogFile,
  files: readonly LogFile[],
  stat: fs.Stats,
  companions: string | undefined,
  cursor: Cursor | undefined,
): Planned {
  // Same inode (or a Codex rollout moved to the archive) and not shorter: resume.
  const sameFile =
    cursor !== undefined &&
    (cursor.ino === stat.ino || parser.agent === 'codex' || parser.agent === 'every-code' || file.keepState === true);
  const resume = file.format === 'jsonl' && cursor !== undefined && sameFile && stat.size >= cursor.offset;
  const start: ParseStart = {
    offset: resume ? (cursor?.offset ?? 0) : 0,
    // documents are re-read whole, but keep their parser state while the file is the same
    state: resume || (file.format === 'document' && sameFile) ? cursor?.state : undefined,
  };
  const bytes = resume ? stat.size - (cursor?.offset ?? 0) : stat.size;
  return { parser, file, files, stat, companions, cursor, resume, start, bytes };
}

function companionSig(file: LogFile): string | undefined {
  if (file.companions === undefined) return undefined;
  return file.companions
    .map((p) => {
      try {
        const st = fs.statSync(p);
        return `${st.size}:${st.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join(',');
}

export function scan(opts: ScanOptions): ScanResult {
  const { state, now } = opts;
  const agents: Record<string, AgentSummary> = {};
  const plan: Planned[] = [];
  let totalBytes = 0;
  for (const parser of opts.parsers) {
    const summary: AgentSummary = { files: 0, changed: 0, records: 0, malformed: 0, skipped: 0, bytes: 0 };
    agents[parser.agent] = summary;
    const files = parser.discover(opts.roots);
    summary.files = files.length;
    for (const file of files) {
      let stat: fs.Stats;
      try {
        stat = fs.statSync(file.path);
      } catch {
        continue;
      }
      const cursor = state.cursors[file.key];
      const companions = companionSig(file);
      if (
        cursor !== undefined &&
        cursor.ino === stat.ino &&
        cursor.size === stat.size &&
        cursor.mtimeMs === stat.mtimeMs &&
        cursor.companions === companions
      ) {
        continue;
      }
      summary.changed += 1;
      const resume = file.format === 'jsonl' && cursor !== undefined && stat.size >= cursor.offset;
      totalBytes += resume ? stat.size - cursor.offset : stat.size;
      plan.push(planned(parser, file, files, stat, companions, cursor));
    }
  }
  opts.onPlan?.(totalBytes, plan.length);

  const parallel = startParallelReads(plan, totalBytes, now, opts.parallel);
  let workerReads = 0;
  try {
    workerReads = readPlan(plan, parallel, opts, agents);
  } finally {
    parallel.close();
  }
  return {
    agents,
    bytesRead: Object.values(agents).reduce((a, s) => a + s.bytes, 0),
    changedGroups: state.buckets.changedGroups.size,
    threads: parallel.threads,
    workerReads,
  };
}

/** Fold each planned file's read into the state, strictly in plan order; returns how many reads came from workers. */
function readPlan(
  plan: readonly Planned[],
  parallel: ParallelReads,
  opts: ScanOptions,
  agents: Record<string, AgentSummary>,
): number {
  let workerReads = 0;
  const { state, now } = opts;
  const resolver = new ProjectResolver();
  /** The last record's bucket key and what it was made of. */
  let last:
    { hourStart: number; source: string; model: string; cwd?: string; session?: string; key: string } | undefined;
  let done = 0;
  for (let i = 0; i < plan.length; i += 1) {
    const p = plan[i] as Planned;
    const summary = agents[p.parser.agent] as AgentSummary;
    // What the parser reports is applied only once the whole pass succeeded, so a file that
    // fails half way (vanished, unreadable) changes nothing and is simply read again next time.
    const pending: (() => void)[] = [];
    const keyOf = (rec: UsageRecord): string | undefined => {
      if (!isAcceptedInstant(rec.ts, now)) return undefined;
      const hourStart = halfHourStart(rec.ts);
      // consecutive records mostly share their bucket (a session's turns in one half-hour)
      if (
        last !== undefined &&
        last.hourStart === hourStart &&
        last.source === rec.source &&
        last.model === rec.model &&
        last.cwd === rec.cwd &&
        last.session === rec.session
      )
        return last.key;
      const project = resolver.resolve(rec.cwd);
      const ref = project?.ref;
      if (project !== undefined && ref !== undefined && state.projectRefs[project.key] !== ref) {
        // like everything else a file reports, kept only once its whole pass succeeded
        pending.push(() => {
          if (state.projectRefs[project.key] === ref) return;
          state.projectRefs[project.key] = ref;
          state.dirty = true;
        });
      }
      const key = withSession(
        bucketKey({ hourStart, source: rec.source, model: rec.model, project: project?.key ?? '' }),
        rec.session,
      );
      last = { hourStart, source: rec.source, model: rec.model, cwd: rec.cwd, session: rec.session, key };
      return key;
    };
    const { resume, start } = p;
    const contrib: Record<string, number[]> = resume ? { ...(p.cursor?.contrib ?? {}) } : {};
    let malformed = 0;
    let skipped = 0;
    const sink: RecordSink = {
      add(rec) {
        const key = keyOf(rec);
        if (key === undefined) {
          skipped += 1;
          return;
        }
        pending.push(() => {
          summary.records += 1;
          state.buckets.add(key, rec.counts);
          const cur = unpackCounts(contrib[key] ?? []);
          addInto(cur, rec.counts);
          contrib[key] = packCounts(cur);
        });
      },
      upsert(id, rec, o) {
        const key = keyOf(rec);
        if (key === undefined) {
          skipped += 1;
          return;
        }
        pending.push(() => {
          const outcome = state.ledger(p.parser.agent).upsert(id, key, rec.counts, o ?? {}, state.buckets);
          if (outcome === 'new') summary.records += 1;
          else if (outcome === 'replay' || outcome === 'same') summary.skipped += 1;
        });
      },
      malformed(n = 1) {
        malformed += n;
      },
      skipped(n = 1) {
        skipped += n;
      },
    };
    // a worker's read is replayed; a read on this thread reports straight to the sink (no
    // recorded calls to build and replay), which applies nothing unless the pass succeeds
    const recorded = parallel.read(i);
    let read: ReadEnd;
    if (recorded === undefined) read = parseInto(p.parser, p.file, start, { now, files: p.files }, sink);
    else {
      workerReads += 1;
      if (recorded.ok) replayPacked(recorded, sink);
      read = recorded;
    }
    if (!read.ok) {
      last = undefined; // it may describe a record of this failed pass, whose project was not kept
      if (read.unavailable) (summary.unavailable ??= []).push(read.message);
      else {
        summary.malformed += 1;
        opts.onMalformed?.(p.parser.agent, p.file.path, 1);
      }
      continue;
    }
    const result = { offset: read.offset, state: read.state };
    summary.malformed += malformed;
    if (malformed > 0) opts.onMalformed?.(p.parser.agent, p.file.path, malformed);
    summary.skipped += skipped;
    if (!resume && p.cursor?.contrib !== undefined) {
      // re-read from the start: take back what this file added before
      for (const [k, packed] of Object.entries(p.cursor.contrib)) state.buckets.add(k, unpackCounts(packed), -1);
    }
    for (const apply of pending) apply();
    const bytes = p.file.format === 'jsonl' ? result.offset - (resume ? (p.cursor?.offset ?? 0) : 0) : p.stat.size;
    summary.bytes += bytes;
    done += resume ? p.stat.size - (p.cursor?.offset ?? 0) : p.stat.size;
    opts.onProgress?.(done);
    const next: Cursor = {
      agent: p.parser.agent,
      ino: p.stat.ino,
      size: p.stat.size,
      mtimeMs: p.stat.mtimeMs,
      offset: result.offset,
    };
    if (p.companions !== undefined) next.companions = p.companions;
    if (result.state !== null && result.state !== undefined) next.state = result.state;
    if (Object.keys(contrib).length > 0)
      next.contrib = contrib as Record<string, [number, number, number, number, number]>;
    state.cursors[p.file.key] = next;
    state.dirty = true;
  }
  return workerReads;
}
