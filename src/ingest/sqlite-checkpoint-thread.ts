/**
 * @fileoverview The SQLite checkpoint thread: a connection of its own to the database file, which
 * copies the WAL's new pages into the file every `everyMs` (a PASSIVE checkpoint: it never waits
 * for the writer or a reader), so the ingest writer thread does not wait on those copies and their
 * fsync inside its COMMIT (db/sqlite-checkpoints.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteHandle } from '../db/connect.js';
import { prepareCheckpoint } from '../db/sqlite-checkpoints.js';
import type { CheckpointThreadData } from './sqlite-thread-wire.js';

const port = parentPort;
if (port === null) throw new Error('sqlite-checkpoint-thread.ts runs as a worker thread');
const { file, everyMs } = workerData as CheckpointThreadData;
const sqlite = openSqliteHandle(file);
const checkpoint = prepareCheckpoint(sqlite);

const tick = () => {
  try {
    checkpoint();
  } catch {
    // Tried again on the next pass; meanwhile each connection's own commit still checkpoints
    // past the bound (db/sqlite-checkpoints.ts).
  }
  timer = setTimeout(tick, everyMs);
};
let timer = setTimeout(tick, everyMs);

port.once('message', () => {
  clearTimeout(timer);
  sqlite.close();
  port.postMessage('closed');
  port.close();
});
