/**
 * @fileoverview A read worker (worker thread, started by read-pool.ts): claims the scan's batches
 * from the back, one at a time, until it meets the batches the calling thread claimed from the
 * front; runs each agent's parser over a claimed batch's files with {@link readFile}, posts the
 * recorded reads and bumps the shared counter the calling thread sleeps on. It touches no state:
 * cursors, ledgers and buckets stay on the calling thread, which applies reads in plan order.
 * Bundled as its own entry (`bin/read-worker.js`) next to the CLI by scripts/build-cli.ts.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { allParsers } from './parsers/index.js';
import type { LogFile, ParseStart } from './parsers/types.js';
import { CLAIM_BASE, CLAIM_WORKER, CURSOR_BACK, CURSOR_DONE } from './read-control.js';
import { packRead, readFile, type FileRead, type PackedRead } from './read-events.js';

/** What the pool hands a worker when it starts it. */
export interface WorkerInit {
  port: MessagePort;
  /** Int32 control array (read-control.ts). */
  control: SharedArrayBuffer;
  /** Every batch of the scan, by id. */
  batches: readonly ReadTask[][];
  now: number;
  /** Each agent's discovered files (the parse context; Codex finds fork parents there). */
  files: Record<string, LogFile[]>;
}

export interface ReadTask {
  agent: string;
  file: LogFile;
  start: ParseStart;
}

export interface BatchResult {
  id: number;
  reads: PackedRead[];
}

function serve(init: WorkerInit): void {
  const control = new Int32Array(init.control);
  for (;;) {
    const id = Atomics.sub(control, CURSOR_BACK, 1) - 1;
    // the calling thread got here first: every batch before this one is claimed from the front
    if (id < 0 || Atomics.compareExchange(control, CLAIM_BASE + id, 0, CLAIM_WORKER) !== 0) break;
    const reads = (init.batches[id] ?? []).map((t): FileRead => {
      const parser = allParsers.find((p) => p.agent === t.agent);
      if (parser === undefined) return { ok: false, unavailable: false, message: `no parser for ${t.agent}` };
      return readFile(parser, t.file, t.start, { now: init.now, files: init.files[t.agent] ?? [] });
    });
    const packed = reads.map(packRead);
    const res: BatchResult = { id, reads: packed };
    init.port.postMessage(
      res,
      packed.flatMap((r): ArrayBuffer[] => (r.ok ? [r.data.buffer as ArrayBuffer] : [])),
    );
    Atomics.add(control, CURSOR_DONE, 1);
    Atomics.notify(control, CURSOR_DONE);
  }
}

const init = workerData as WorkerInit | null;
if (init !== null && typeof init === 'object' && 'port' in init) serve(init);
