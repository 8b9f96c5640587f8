/**
 * @fileoverview Where the SQLite ingest writer's groups are written: on the writer thread's own
 * connection for a database file (sqlite/thread/thread.ts), on the app's connection for an in-memory
 * database (which no other connection can open).
 *
 * Either way the groups hold the app's write lock (`db.writeLock`) while they are written, so the
 * app's own write transactions take turns with them instead of meeting a busy database. On the
 * app's connection a group is written at once and holds the lock alone, through the thread's own
 * steps (packed, cloned, joined, answered as data: `writeAsThread`), so the tests' in-memory
 * databases run the code a database file does. The thread is sent groups
 * while it writes others (it joins those waiting: sqlite/thread/join.ts), so they hold the lock
 * together (db/shared-hold.ts): from the first sent until the last is answered, and an app write
 * that asks for it meanwhile stops new groups from being sent until it has had its turn.
 *
 * Beside the writer thread runs the checkpoint thread, which copies the WAL into the database file
 * (db/sqlite-checkpoints.ts); both start at the first upload and end with the runner.
 */
import { Worker } from 'node:worker_threads';
import type { SqliteDb } from '../../db/connect.js';
import { SharedHold } from '../../db/shared-hold.js';
import type { IngestBounds } from '../core/bounds.js';
import {
  DEFAULT_CHECKPOINT_POLICY,
  leaveCheckpointsToThread,
  type CheckpointPolicy,
} from '../../db/sqlite-checkpoints.js';
import { createSqliteGroupWrite, type GroupReply, type GroupWork } from './group-write.js';
import {
  fromWireError,
  fromWireOutcome,
  THREAD_WAITING,
  THREAD_WRITING,
  threadSignal,
  toWireWork,
  type FromThread,
  type CheckpointThreadData,
  type ThreadData,
  type ToThread,
} from './thread/wire.js';
import { takeJoined, writeJoined } from './thread/join.js';

export interface GroupRunner {
  /** Writes a group; rejects when it failed as a whole (nothing of it stored). */
  run(work: GroupWork): Promise<GroupReply>;
  /** True when a group may be sent while others are written (they are written in the order sent). */
  readonly overlaps: boolean;
  /** True when the writer has nothing to write: an upload is best sent at once, not at the end of the turn. */
  waitsForWork(): boolean;
  /** Ends the thread, if any, once its group is written. */
  close(): Promise<void>;
}

export function createGroupRunner(
  db: SqliteDb,
  bounds: IngestBounds,
  checkpoints: CheckpointPolicy = DEFAULT_CHECKPOINT_POLICY,
): GroupRunner {
  if (db.sqlite.memory) return new LocalRunner(db, bounds); // an in-memory database has no WAL
  return new ThreadRunner(db, { file: db.sqlite.name, bounds, checkpoints, signal: threadSignal() });
}

class LocalRunner implements GroupRunner {
  readonly overlaps = false;
  private readonly write;

  constructor(
    private readonly db: SqliteDb,
    bounds: IngestBounds,
  ) {
    this.write = createSqliteGroupWrite(db.sqlite, bounds);
  }

  waitsForWork(): boolean {
    return false; // a group is written when its turn ends, with the uploads of the turn
  }

  run(work: GroupWork): Promise<GroupReply> {
    const lock = this.db.writeLock;
    if (!lock.isFree) return lock.run(() => this.writeAsThread(work));
    try {
      return Promise.resolve(this.writeAsThread(work)); // synchronous: nothing can interleave
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Writes the group through the thread's own steps, so the tests' in-memory databases run the
   * code a database file runs: the group packed and cloned as it would cross (thread/wire.ts,
   * thread/packing.ts), taken and written as the thread takes it (thread/join.ts), and its answer
   * cloned back, errors as data. Only the worker itself, the shared word and the shared hold are
   * the file's alone.
   */
  private writeAsThread(work: GroupWork): GroupReply {
    const sent: ToThread = structuredClone({ id: 0, work: toWireWork(work) });
    const joined = takeJoined([sent]);
    if (joined === undefined) throw new Error('a group to write is always taken');
    const [reply] = writeJoined(joined, this.write);
    if (reply === undefined) throw new Error('a group written alone has one answer');
    return fromThreadReply(structuredClone(reply));
  }

  async close(): Promise<void> {}
}

type Waiting = (reply: FromThread) => void;

class ThreadRunner implements GroupRunner {
  readonly overlaps = true;
  private readonly hold: SharedHold;
  private thread: Worker | undefined;
  private checkpointer: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly db: SqliteDb,
    private readonly data: ThreadData,
  ) {
    this.hold = new SharedHold(db.writeLock);
  }

  waitsForWork(): boolean {
    return Atomics.load(this.data.signal, 0) === THREAD_WAITING;
  }

  async run(work: GroupWork): Promise<GroupReply> {
    this.checkpointer ??= this.startCheckpointer();
    // Before the wait for the lock: the uploads ready after this one go at the end of the turn.
    Atomics.store(this.data.signal, 0, THREAD_WRITING);
    await this.hold.enter();
    let reply: FromThread;
    try {
      reply = await this.send((id) => ({ id, work: toWireWork(work) }));
    } finally {
      this.hold.leave();
    }
    return fromThreadReply(reply);
  }

  async close(): Promise<void> {
    if (this.thread !== undefined) await this.db.writeLock.run(() => this.send((id) => ({ id, close: true })));
    const checkpointer = this.checkpointer;
    this.checkpointer = undefined;
    if (checkpointer !== undefined) await stopCheckpointer(checkpointer);
  }

  private send(message: (id: number) => ToThread): Promise<FromThread> {
    const thread = (this.thread ??= this.start());
    const id = this.nextId++;
    return new Promise<FromThread>((resolve) => {
      this.waiting.set(id, resolve);
      thread.ref(); // until it is answered
      thread.postMessage(message(id));
    });
  }

  /** Started at the first upload, so a process that never takes one (tests, the admin tool) has no thread. */
  private start(): Worker {
    const thread = startThread('thread', this.data);
    thread.on('message', (reply: FromThread) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) thread.unref();
      waiting?.(reply);
    });
    const fail = (error: Error) => {
      if (this.thread === thread) this.thread = undefined; // the next group starts a new one
      for (const [id, waiting] of this.waiting) {
        this.waiting.delete(id);
        waiting({ id, kind: 'failed', error: { kind: 'error', name: error.name, message: error.message } });
      }
    };
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`the ingest writer thread ended (exit code ${code})`)));
    // Idle, never what keeps the process alive (the app closes it); a group in flight does (send()).
    // After the listeners: adding a 'message' listener refs the thread again.
    thread.unref();
    return thread;
  }

  /**
   * From now on this process's connections leave checkpoints to the thread (the app's own too, so
   * an app write does not copy the writer's pages on the event loop). Should the thread end, the
   * next group starts another; meanwhile each connection's own commits checkpoint past the bound.
   */
  private startCheckpointer(): Worker {
    const { file, checkpoints } = this.data;
    leaveCheckpointsToThread(this.db.sqlite, checkpoints);
    const thread = startThread('checkpoint-thread', {
      file,
      everyMs: checkpoints.everyMs,
    } satisfies CheckpointThreadData);
    const forget = () => {
      if (this.checkpointer === thread) this.checkpointer = undefined;
    };
    thread.on('error', forget);
    thread.on('exit', forget);
    thread.unref(); // never what keeps the process alive
    return thread;
  }
}

/** How a group ended, from the thread's answer; throws when it failed as a whole. */
function fromThreadReply(reply: FromThread): GroupReply {
  switch (reply.kind) {
    case 'written':
      return { kind: 'written', outcomes: reply.outcomes.map(fromWireOutcome) };
    case 'failed':
      throw fromWireError(reply.error);
    case 'busy':
    case 'stale':
      return reply;
    case 'closed':
      throw new Error('the ingest writer thread closed');
  }
}

/** Asks the checkpoint thread to close its connection, and waits until it has ended. */
function stopCheckpointer(thread: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    thread.ref(); // until it has ended: the process may have nothing else to wait for
    thread.once('exit', () => resolve());
    thread.postMessage('close');
  });
}

/**
 * A thread's module sits beside this one: JavaScript in a build, TypeScript when the app runs
 * from its sources (tests, `npm run dev`), where the thread loads tsx before importing it.
 */
function startThread(module: 'thread' | 'checkpoint-thread', data: ThreadData | CheckpointThreadData): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(`./thread/${module}.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSources) return new Worker(entry, { workerData: data });
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: data });
}
