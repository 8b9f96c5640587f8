/**
 * @fileoverview The SQLite checkpoint thread: a connection of its own to the database file, which
 * copies the WAL's new pages into the file every `everyMs` (a PASSIVE checkpoint: it never waits
 * for the writer or a reader), so the ingest writer thread does not wait on those copies and their
 * fsync inside its COMMIT (db/sqlite-checkpoints.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteHandle } from '../../../db/connect.js';
import { IDLE_CHECKPOINT_MS, prepareCheckpoint } from '../../../db/sqlite-checkpoints.js';
import type { CheckpointThreadData } from './wire.js';

const port = parentPort;
if (port === null) throw new Error('sqlite/thread/checkpoint-thread.ts runs as a worker thread');
const { file, everyMs } = workerData as CheckpointThreadData;
const sqlite = openSqliteHandle(file);
const checkpoint = prepareCheckpoint(sqlite);

// While nothing is written the passes grow apart, so an idle server barely wakes. The longest gap
// is short enough that the first pass after a pause finds the WAL still within its bound.
let last: string | undefined;
let delayMs = everyMs;
const tick = () => {
  let state: string | undefined;
  try {
    state = checkpoint();
  } catch {
    // Tried again on the next pass; meanwhile each connection's own commit still checkpoints
    // past the bound (db/sqlite-checkpoints.ts).
  }
  delayMs = state !== undefined && state === last ? Math.min(2 * delayMs, IDLE_CHECKPOINT_MS) : everyMs;
  last = state;
  timer = setTimeout(tick, delayMs);
};
let timer = setTimeout(tick, everyMs);

port.once('message', () => {
  clearTimeout(timer);
  sqlite.close();
  port.close(); // the runner waits for the thread's exit
});
