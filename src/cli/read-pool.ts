/**
 * @fileoverview Worker threads that read files in parallel for one scan, driven synchronously:
 * the engine stays a plain synchronous loop, asks for batch results strictly in plan order with
 * {@link ReadPool.take}, and this module keeps every worker busy with up to two batches while the
 * engine waits (`Atomics.wait` on a shared counter, `receiveMessageOnPort` to collect). A worker
 * that does not answer in time (it failed to start, or the machine stalls) costs nothing but
 * time: the batch is read on the main thread instead, so a result is always the one-thread result.
 */
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { allParsers } from './parsers/index.js';
import type { AgentParser, LogFile, ParseStart } from './parsers/types.js';
import { readFile, unpackRead, type FileRead } from './read-events.js';
import type { BatchRequest, BatchResult, ReadTask, WorkerInit } from './read-worker.js';

/** How long the main thread waits without any worker answering before reading a batch itself. */
const STALL_MS = 20_000;
/** Young-generation size of a worker, MB. */
const YOUNG_MB = 64;
/** Batches in flight per worker (one being read, one queued behind it). */
const DEPTH = 2;

/** How a scan may spread its reading over threads. */
export interface ParallelOptions {
  /** Read in parallel only when at least this many bytes are to be read (default 32 MB). */
  minBytes?: number;
  /**
   * Worker threads (0: none). Default: one fewer than the machine's available parallelism, at
   * most 8, since the calling thread is busy too, folding what the workers read; none on one or
   * two cores, where a worker costs more than it reads (see {@link defaultThreads}).
   */
  threads?: number;
  /** The worker module (default `read-worker.js` beside this module, as built and shipped). */
  workerUrl?: URL;
  /** How long to wait without any worker answering before reading a batch here (default 20 s). */
  stallMs?: number;
}

export const DEFAULT_MIN_BYTES = 32 * 1024 * 1024;

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * Worker threads for a machine with `cores` available: one fewer (the calling thread folds what
 * they read), at most 8, and none on two cores or fewer. There one worker beside the calling
 * thread bought no wall time, as its own costs (booting a thread, a second heap and JIT, packing
 * and unpacking the records) and the calling thread's folding of every record ate the gain: on a
 * 2-vCPU machine the first read of 140 MB of Claude Code logs took 0.41–0.63 s on one thread and
 * 0.44–0.63 s with the worker, at 40 % more CPU (docs/cli.md, "Performance").
 */
export function defaultThreads(cores: number): number {
  return cores <= 2 ? 0 : Math.min(8, cores - 1);
}

/** Options from the caller, else `TOKENTALLY_READ_THREADS` / `TOKENTALLY_PARALLEL_MIN_BYTES`, else defaults. */
export function resolveParallel(opts: ParallelOptions | undefined): Required<ParallelOptions> {
  const threads = opts?.threads ?? envNumber('TOKENTALLY_READ_THREADS') ?? defaultThreads(os.availableParallelism());
  return {
    minBytes: opts?.minBytes ?? envNumber('TOKENTALLY_PARALLEL_MIN_BYTES') ?? DEFAULT_MIN_BYTES,
    threads: Math.floor(threads),
    workerUrl: opts?.workerUrl ?? new URL('./read-worker.js', import.meta.url),
    stallMs: opts?.stallMs ?? STALL_MS,
  };
}

interface Slot {
  worker: Worker;
  port: MessagePort;
  inFlight: number;
  /** Did not answer in time: no more batches, and its outstanding ones are read here. */
  dead?: boolean;
}

export class ReadPool {
  private readonly slots: Slot[] = [];
  private readonly signal = new SharedArrayBuffer(4);
  private readonly counter = new Int32Array(this.signal);
  private readonly results = new Map<number, FileRead[]>();
  private readonly owner = new Map<number, Slot>();
  private nextToSend = 0;
  /** Batches from here on were taken by the calling thread (read from the tail while it waited). */
  private end: number;

  private constructor(
    private readonly batches: readonly ReadTask[][],
    private readonly parsers: readonly AgentParser[],
    private readonly now: number,
    private readonly files: Record<string, LogFile[]>,
    private readonly stallMs: number,
  ) {
    this.end = batches.length;
  }

  /** Start up to `threads` workers for `batches`, or undefined when the worker module is missing. */
  static open(
    url: URL,
    threads: number,
    batches: readonly ReadTask[][],
    parsers: readonly AgentParser[],
    now: number,
    files: Record<string, LogFile[]>,
    stallMs: number,
  ): ReadPool | undefined {
    if (url.protocol === 'file:' && !fs.existsSync(fileURLToPath(url))) return undefined;
    const pool = new ReadPool(batches, parsers, now, files, stallMs);
    try {
      for (let i = 0; i < Math.min(threads, batches.length); i += 1) {
        const { port1, port2 } = new MessageChannel();
        const init: WorkerInit = { port: port2, signal: pool.signal, now, files };
        const worker = new Worker(url, {
          workerData: init,
          transferList: [port2],
          // parsing allocates a string and an object tree per usage line: a larger young
          // generation lets most of it die without being scavenged over and over
          resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB },
        });
        worker.unref();
        worker.on('error', () => undefined); // a lost worker's batches are read on the main thread
        pool.slots.push({ worker, port: port1, inFlight: 0 });
      }
    } catch {
      pool.close();
      return undefined;
    }
    pool.dispatch();
    return pool;
  }

  /** Batch `id`'s reads (blocking until a worker delivers them, or reading them here). */
  take(id: number): FileRead[] {
    for (;;) {
      const done = this.results.get(id);
      if (done !== undefined) {
        this.results.delete(id);
        return done;
      }
      const seen = Atomics.load(this.counter, 0);
      if (this.collect() > 0) continue;
      const slot = this.owner.get(id);
      if (slot !== undefined && slot.dead !== true && this.nextToSend < this.end) {
        // rather than sleep, read the last batch nobody has been sent: the workers go on from
        // the front, this thread from the back, and the results are the same wherever read
        this.end -= 1;
        this.results.set(this.end, this.readHere(this.end));
        continue;
      }
      if (
        slot === undefined ||
        slot.dead === true ||
        Atomics.wait(this.counter, 0, seen, this.stallMs) === 'timed-out'
      ) {
        if (this.collect() > 0) continue;
        // not sent, or its worker did not answer in time: read it here (a late answer is ignored)
        if (slot !== undefined) slot.dead = true;
        const reads = this.readHere(id);
        this.owner.delete(id);
        this.dispatch();
        return reads;
      }
    }
  }

  get threads(): number {
    return this.slots.length;
  }

  close(): void {
    for (const s of this.slots) {
      s.port.close();
      void s.worker.terminate();
    }
    this.slots.length = 0;
  }

  private readHere(id: number): FileRead[] {
    return (this.batches[id] ?? []).map((t) => {
      const parser = this.parsers.find((p) => p.agent === t.agent);
      if (parser === undefined) return { ok: false, unavailable: false, message: `no parser for ${t.agent}` };
      return readFile(parser, t.file, t.start, { now: this.now, files: this.files[t.agent] ?? [] });
    });
  }

  /** Move every delivered result into `results`; returns how many arrived. */
  private collect(): number {
    let n = 0;
    for (const slot of this.slots) {
      for (let m = receiveMessageOnPort(slot.port); m !== undefined; m = receiveMessageOnPort(slot.port)) {
        const res = m.message as BatchResult;
        if (this.owner.get(res.id) !== slot) continue; // already read here
        this.owner.delete(res.id);
        slot.inFlight -= 1;
        this.results.set(res.id, res.reads.map(unpackRead));
        n += 1;
      }
    }
    if (n > 0) this.dispatch();
    return n;
  }

  private dispatch(): void {
    for (;;) {
      if (this.nextToSend >= this.end) return;
      let best: Slot | undefined;
      for (const s of this.slots)
        if (s.dead !== true && s.inFlight < DEPTH && (best === undefined || s.inFlight < best.inFlight)) best = s;
      if (best === undefined) return;
      const id = this.nextToSend;
      this.nextToSend += 1;
      const req: BatchRequest = { id, tasks: this.batches[id] ?? [] };
      best.port.postMessage(req);
      best.inFlight += 1;
      this.owner.set(id, best);
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
  read(index: number): FileRead | undefined;
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
  // about eight batches per thread (the calling thread reads some too), so a slow one does not
  // hold the others up for long
  const target = Math.max(256 * 1024, Math.min(16 * 1024 * 1024, totalBytes / ((cfg.threads + 1) * 8)));
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
  const pool = ReadPool.open(cfg.workerUrl, cfg.threads, batches, allParsers, now, files, cfg.stallMs);
  if (pool === undefined) return NONE;
  let open: [number, FileRead[]] | undefined;
  return {
    threads: pool.threads,
    read(index) {
      const at = where.get(index);
      if (at === undefined) return undefined;
      if (open?.[0] !== at[0]) open = [at[0], pool.take(at[0])];
      return open[1][at[1]];
    },
    close: () => pool.close(),
  };
}
