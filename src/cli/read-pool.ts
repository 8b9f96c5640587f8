/**
 * @fileoverview Worker threads that read files in parallel for one scan, driven synchronously.
 * The engine folds reads strictly in plan order; the batches of a large read are shared out from
 * both ends: the calling thread takes them from the front and reads each straight into the
 * engine (no record to pack and replay), the workers take them from the back and post recorded
 * reads, until the two meet. Each batch is claimed once, by a compare-and-swap on a shared
 * array, so the split follows however fast each side turns out to be. When the engine reaches a
 * batch a worker holds it waits for that read (`Atomics.wait` on a shared counter,
 * `receiveMessageOnPort` to collect); a worker that does not answer in time (it failed to start,
 * or the machine stalls) costs nothing but time: its batches are read on the calling thread
 * instead, so a result is always the one-thread result.
 */
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { allParsers } from './parsers/index.js';
import type { AgentParser, LogFile, ParseStart } from './parsers/types.js';
import type { PackedRead } from './read-events.js';
import { CLAIM_BASE, CLAIM_MAIN, CURSOR_BACK, CURSOR_DONE } from './read-control.js';
import type { BatchResult, ReadTask, WorkerInit } from './read-worker.js';

/** How long the calling thread waits for a worker's batch, without any worker answering, before reading it itself. */
const STALL_MS = 20_000;
/** Young-generation size of a worker, MB. */
const YOUNG_MB = 64;

/** How a scan may spread its reading over threads. */
export interface ParallelOptions {
  /** Read in parallel only when at least this many bytes are to be read (default 32 MB). */
  minBytes?: number;
  /**
   * Worker threads (0: none). Default: one fewer than the machine's available parallelism, at
   * most 8, since the calling thread reads too (see {@link defaultThreads}).
   */
  threads?: number;
  /** The worker module (default `read-worker.js` beside this module, as built and shipped). */
  workerUrl?: URL;
  /** How long to wait for a worker's batch without any worker answering (default 20 s). */
  stallMs?: number;
  /**
   * Whether the calling thread claims batches too (default true). False leaves every batch to
   * the workers (tests use it, so what the workers read is certain to be folded).
   */
  callerReads?: boolean;
}

export const DEFAULT_MIN_BYTES = 32 * 1024 * 1024;

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * Worker threads for a machine with `cores` available: one fewer (the calling thread reads and
 * folds too), at most 8; none on one core. On two cores the one worker takes the batches the
 * calling thread has not reached, so a first read of a large history finishes sooner when the
 * second core is free and costs little more than a one-thread read when it is not
 * (docs/cli.md, "Performance").
 */
export function defaultThreads(cores: number): number {
  return cores <= 1 ? 0 : Math.min(8, cores - 1);
}

/** Options from the caller, else `TOKENTALLY_READ_THREADS` / `TOKENTALLY_PARALLEL_MIN_BYTES`, else defaults. */
export function resolveParallel(opts: ParallelOptions | undefined): Required<ParallelOptions> {
  const threads = opts?.threads ?? envNumber('TOKENTALLY_READ_THREADS') ?? defaultThreads(os.availableParallelism());
  return {
    minBytes: opts?.minBytes ?? envNumber('TOKENTALLY_PARALLEL_MIN_BYTES') ?? DEFAULT_MIN_BYTES,
    threads: Math.floor(threads),
    workerUrl: opts?.workerUrl ?? new URL('./read-worker.js', import.meta.url),
    stallMs: opts?.stallMs ?? STALL_MS,
    callerReads: opts?.callerReads ?? true,
  };
}

export class ReadPool {
  private readonly workers: { worker: Worker; port: MessagePort }[] = [];
  /** The workers' back cursor, their count of posted batches and each batch's claim (read-worker.ts). */
  private readonly control: Int32Array;
  private readonly results = new Map<number, PackedRead[]>();
  /** A batch's wait ran out: every batch a worker has not delivered yet is read here. */
  private stalled = false;

  private constructor(
    batches: number,
    private readonly stallMs: number,
    private readonly callerReads: boolean,
  ) {
    this.control = new Int32Array(new SharedArrayBuffer(4 * (CLAIM_BASE + batches)));
    Atomics.store(this.control, CURSOR_BACK, batches);
  }

  /** Start up to `threads` workers for `batches`, or undefined when the worker module is missing. */
  static open(
    url: URL,
    threads: number,
    batches: readonly ReadTask[][],
    now: number,
    files: Record<string, LogFile[]>,
    stallMs: number,
    callerReads: boolean,
  ): ReadPool | undefined {
    if (url.protocol === 'file:' && !fs.existsSync(fileURLToPath(url))) return undefined;
    const pool = new ReadPool(batches.length, stallMs, callerReads);
    try {
      for (let i = 0; i < Math.min(threads, batches.length); i += 1) {
        const { port1, port2 } = new MessageChannel();
        const init: WorkerInit = {
          port: port2,
          control: pool.control.buffer as SharedArrayBuffer,
          batches,
          now,
          files,
        };
        const worker = new Worker(url, {
          workerData: init,
          transferList: [port2],
          // parsing allocates a string and an object tree per usage line: a larger young
          // generation lets most of it die without being scavenged over and over
          resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB },
        });
        worker.unref();
        worker.on('error', () => undefined); // a lost worker's batches are read on the calling thread
        pool.workers.push({ worker, port: port1 });
      }
    } catch {
      pool.close();
      return undefined;
    }
    return pool;
  }

  /**
   * Batch `id`'s reads: undefined when the calling thread claimed it (read it there, straight
   * into the engine), else a worker's recorded reads (blocking until they arrive, or undefined
   * once a worker failed to answer in time).
   */
  take(id: number): PackedRead[] | undefined {
    if (this.callerReads && Atomics.compareExchange(this.control, CLAIM_BASE + id, 0, CLAIM_MAIN) === 0)
      return undefined;
    for (;;) {
      const seen = Atomics.load(this.control, CURSOR_DONE);
      this.collect();
      const done = this.results.get(id);
      if (done !== undefined) {
        this.results.delete(id);
        return done;
      }
      if (this.stalled || Atomics.wait(this.control, CURSOR_DONE, seen, this.stallMs) === 'timed-out') {
        this.collect();
        const late = this.results.get(id);
        this.results.delete(id);
        if (late !== undefined) return late;
        this.stalled = true;
        return undefined;
      }
    }
  }

  get threads(): number {
    return this.workers.length;
  }

  close(): void {
    for (const w of this.workers) {
      w.port.close();
      void w.worker.terminate();
    }
    this.workers.length = 0;
  }

  /** Move every delivered result into `results`. */
  private collect(): void {
    for (const w of this.workers)
      for (let m = receiveMessageOnPort(w.port); m !== undefined; m = receiveMessageOnPort(w.port)) {
        const res = m.message as BatchResult;
        this.results.set(res.id, res.reads);
      }
  }
}

/** One file a scan will read, as the pool needs it. */
export interface PlannedRead {
  parser: AgentParser;
  file: LogFile;
  files: readonly LogFile[];
  start: ParseStart;
  bytes: number;
}

/** Reads by plan index, from the workers; `undefined` means "read it on this thread". */
export interface ParallelReads {
  read(index: number): PackedRead | undefined;
  close(): void;
  /** Worker threads started (0: a one-thread read). */
  threads: number;
}

const NONE: ParallelReads = { read: () => undefined, close: () => undefined, threads: 0 };

/**
 * Split a large read into batches of consecutive plan entries for the workers. Files of the
 * shipped parsers that need no SQLite go to workers; the rest (and every small read: a hook's
 * sync reads a few KB and must not pay for starting threads) stay on the calling thread.
 */
export function startParallelReads(
  plan: readonly PlannedRead[],
  totalBytes: number,
  now: number,
  opts: ParallelOptions | undefined,
): ParallelReads {
  const cfg = resolveParallel(opts);
  if (cfg.threads < 1 || totalBytes < cfg.minBytes) return NONE;
  const eligible = (p: PlannedRead): boolean =>
    p.parser.needsSqlite !== true && allParsers.find((a) => a.agent === p.parser.agent) === p.parser;
  // about sixteen batches per thread (the calling thread reads some too): where the two ends
  // meet, the calling thread may wait for the batch a worker is reading, so no batch is long
  const target = Math.max(256 * 1024, Math.min(16 * 1024 * 1024, totalBytes / ((cfg.threads + 1) * 16)));
  const batches: ReadTask[][] = [];
  const where = new Map<number, [number, number]>();
  let cur: ReadTask[] = [];
  let curBytes = 0;
  const flush = (): void => {
    if (cur.length > 0) batches.push(cur);
    cur = [];
    curBytes = 0;
  };
  plan.forEach((p, i) => {
    if (!eligible(p)) return flush();
    where.set(i, [batches.length, cur.length]);
    cur.push({ agent: p.parser.agent, file: p.file, start: p.start });
    curBytes += p.bytes;
    if (curBytes >= target || cur.length >= 256) flush();
  });
  flush();
  if (batches.length === 0) return NONE;
  const files: Record<string, LogFile[]> = {};
  for (const p of plan) if (where.size > 0 && eligible(p)) files[p.parser.agent] ??= [...p.files];
  const pool = ReadPool.open(cfg.workerUrl, cfg.threads, batches, now, files, cfg.stallMs, cfg.callerReads);
  if (pool === undefined) return NONE;
  let open: [number, PackedRead[] | undefined] | undefined;
  return {
    threads: pool.threads,
    read(index) {
      const at = where.get(index);
      if (at === undefined) return undefined;
      if (open?.[0] !== at[0]) open = [at[0], pool.take(at[0])];
      return open[1]?.[at[1]];
    },
    close: () => pool.close(),
  };
}
