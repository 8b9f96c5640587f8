/**
 * @fileoverview A read worker (worker thread, started by read-pool.ts): receives batches of
 * files on its port, runs each agent's parser over them with {@link readFile} and posts the
 * recorded results back, then bumps the shared counter the main thread sleeps on. It touches no
 * state: cursors, ledgers and buckets stay on the main thread, which applies results in plan order.
 * Bundled as its own entry (`bin/read-worker.js`) next to the CLI by scripts/build-cli.ts.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { allParsers } from './parsers/index.js';
import type { LogFile, ParseStart } from './parsers/types.js';
import { packRead, readFile, type FileRead, type PackedRead } from './read-events.js';

/** What the pool hands a worker when it starts it. */
export interface WorkerInit {
  port: MessagePort;
  /** Int32 counter bumped after every posted result. */
  signal: SharedArrayBuffer;
  now: number;
  /** Each agent's discovered files (the parse context; Codex finds fork parents there). */
  files: Record<string, LogFile[]>;
}

export interface ReadTask {
  agent: string;
  file: LogFile;
  start: ParseStart;
}

export interface BatchRequest {
  id: number;
  tasks: ReadTask[];
}

export interface BatchResult {
  id: number;
  reads: PackedRead[];
}

function serve(init: WorkerInit): void {
  const signal = new Int32Array(init.signal);
  init.port.on('message', (req: BatchRequest) => {
    const reads = req.tasks.map((t): FileRead => {
      const parser = allParsers.find((p) => p.agent === t.agent);
      if (parser === undefined) return { ok: false, unavailable: false, message: `no parser for ${t.agent}` };
      return readFile(parser, t.file, t.start, { now: init.now, files: init.files[t.agent] ?? [] });
    });
    const packed = reads.map(packRead);
    const res: BatchResult = { id: req.id, reads: packed };
    init.port.postMessage(
      res,
      packed.flatMap((r): ArrayBuffer[] => (r.ok ? [r.data.buffer as ArrayBuffer] : [])),
    );
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  });
}

const init = workerData as WorkerInit | null;
if (init !== null && typeof init === 'object' && 'port' in init) serve(init);
