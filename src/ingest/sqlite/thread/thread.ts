/**
 * @fileoverview The SQLite ingest writer thread: a connection of its own to the database file, on
 * which it writes the groups the app's thread sends it (sqlite/group-write.ts). Groups that arrive
 * while it writes wait in its port; when it is done it takes every one waiting and writes them
 * together (sqlite/thread/join.ts), then goes back to its event loop only when none is left.
 *
 * Why a thread (docs/decisions.md, "Ingest on SQLite"): better-sqlite3 is synchronous, so on the
 * app's thread a group's statements, its COMMIT and the WAL checkpoints that land in it stop every
 * request meanwhile. Here they run beside the HTTP work (parsing, auth, validation, answers) on
 * another core. The WAL checkpoints are not in its COMMITs either: a checkpoint thread beside it
 * copies the pages (db/sqlite-checkpoints.ts).
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { openSqliteHandle } from '../../../db/connect.js';
import { leaveCheckpointsToThread } from '../../../db/sqlite-checkpoints.js';
import { createSqliteGroupWrite } from '../group-write.js';
import { takeJoined, writeJoined } from './join.js';
import { THREAD_WAITING, type FromThread, type ThreadData, type ToThread } from './wire.js';

const port = parentPort;
if (port === null) throw new Error('sqlite/thread/thread.ts runs as a worker thread');
const { file, bounds, checkpoints, signal } = workerData as ThreadData;
const sqlite = openSqliteHandle(file);
leaveCheckpointsToThread(sqlite, checkpoints); // the runner runs the checkpoint thread beside this one
const write = createSqliteGroupWrite(sqlite, bounds);

/** Messages taken from the port, in the order they were sent. */
const waiting: ToThread[] = [];

/** Moves every message already in the port to `waiting`, without going back to the event loop. */
const takeWaiting = (): void => {
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port))
    waiting.push(m.message as ToThread);
};

port.on('message', (message: ToThread) => {
  waiting.push(message);
  takeWaiting();
  while (waiting.length > 0) {
    const joined = takeJoined(waiting);
    if (joined === undefined) {
      const close = waiting.shift() as ToThread; // the word to close: every group before it is written
      sqlite.close();
      port.postMessage({ id: close.id, kind: 'closed' } satisfies FromThread);
      port.close();
      return;
    }
    for (const reply of writeJoined(joined, write)) port.postMessage(reply);
    takeWaiting();
  }
  Atomics.store(signal, 0, THREAD_WAITING);
});
