/**
 * @fileoverview The SQLite ingest writer thread: a connection of its own to the database file, on
 * which it writes the groups the app's thread sends it (sqlite-group-writer.ts), one at a time.
 *
 * Why a thread (docs/decisions.md, "Ingest on SQLite"): better-sqlite3 is synchronous, so on the
 * app's thread a group's statements, its COMMIT and the WAL checkpoints that land in it stop every
 * request meanwhile. Here they run beside the HTTP work (parsing, auth, validation, answers) on
 * another core, and the uploads that arrive while a group is written form the next group. The WAL
 * checkpoints are not in its COMMITs either: a checkpoint thread beside it copies the pages
 * (db/sqlite-checkpoints.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteHandle } from '../db/connect.js';
import { leaveCheckpointsToThread } from '../db/sqlite-checkpoints.js';
import { createSqliteGroupWrite } from './sqlite-group-writer.js';
import {
  fromWireWork,
  toWireError,
  toWireOutcome,
  type FromThread,
  type ThreadData,
  type ToThread,
} from './sqlite-thread-wire.js';

const port = parentPort;
if (port === null) throw new Error('sqlite-thread.ts runs as a worker thread');
const { file, bounds, checkpoints } = workerData as ThreadData;
const sqlite = openSqliteHandle(file);
leaveCheckpointsToThread(sqlite, checkpoints); // the runner runs the checkpoint thread beside this one
const write = createSqliteGroupWrite(sqlite, bounds);

port.on('message', (message: ToThread) => {
  if ('close' in message) {
    sqlite.close();
    port.postMessage({ id: message.id, kind: 'closed' } satisfies FromThread);
    port.close();
    return;
  }
  let reply: FromThread;
  try {
    const written = write(fromWireWork(message.work));
    reply =
      written.kind === 'written'
        ? { id: message.id, kind: 'written', outcomes: written.outcomes.map(toWireOutcome) }
        : { id: message.id, ...written };
  } catch (error) {
    reply = { id: message.id, kind: 'failed', error: toWireError(error) };
  }
  port.postMessage(reply);
});
