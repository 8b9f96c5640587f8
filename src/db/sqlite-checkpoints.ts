/**
 * @fileoverview WAL checkpoints of a database file that takes uploads: done by a thread of their
 * own (src/ingest/sqlite/thread/checkpoint-thread.ts) beside the ingest writer thread, instead of inside
 * the writer's COMMIT (docs/decisions.md, "Checkpoints beside the writer").
 *
 * A checkpoint copies the WAL's new pages into the database file and waits for the fsync of both
 * files. Inside the writer's COMMIT (SQLite's default, every 1,000 frames) that wait stopped the
 * writer; the checkpoint thread copies the pages every `everyMs` while the writer goes on writing.
 * The WAL can only start over from its beginning once every frame is copied, which a checkpoint
 * running beside a busy writer never sees, so each connection still checkpoints within its own
 * commit past `restartFrames` frames: by then only the frames since the thread's last pass are
 * left to copy, and the writer's next transaction starts the WAL over. That copy of the tail, and
 * its fsyncs, stop the writer, so the bound is set where they come seldom enough: the WAL file
 * stays within about `restartFrames` frames (~67 MB with 4 KB pages at the default), and only a
 * writer that never pauses fills it (one that does finds the WAL all copied and starts it over
 * there). While nothing is written the thread's passes grow apart, up to IDLE_CHECKPOINT_MS.
 */
import type BetterSqlite3 from 'better-sqlite3';

/** When WAL pages are copied into the database file. */
export interface CheckpointPolicy {
  /** How often the checkpoint thread copies the WAL's new frames (ms). */
  readonly everyMs: number;
  /** WAL frames past which a connection's own commit checkpoints too (SQLite's `wal_autocheckpoint`). */
  readonly restartFrames: number;
}

/**
 * Measured on the `backfill` pattern (docs/decisions.md, "Checkpoints beside the writer"): 16,384
 * frames gave ~13 % more uploads/s than 8,192, and 32,768 no more than 16,384. 10–100 ms between
 * passes differ within the noise in uploads/s, but the tail a commit copies is what the thread left:
 * 20 ms kept p99 at 31–41 ms where 50 ms gave 43–53.
 */
export const DEFAULT_CHECKPOINT_POLICY: CheckpointPolicy = { everyMs: 20, restartFrames: 16_384 };

/**
 * How far apart the checkpoint thread's passes grow while nothing is written (ms): at `backfill`'s
 * ~29,000 frames a second, the first pass after a pause still finds fewer than 16,384 frames.
 */
export const IDLE_CHECKPOINT_MS = 250;

/** Leaves a connection's checkpoints to the checkpoint thread, but for the one that lets the WAL start over. */
export function leaveCheckpointsToThread(sqlite: BetterSqlite3.Database, policy: CheckpointPolicy): void {
  sqlite.pragma(`wal_autocheckpoint = ${policy.restartFrames}`);
}

/**
 * A PASSIVE checkpoint on `sqlite`: copies the WAL frames no checkpoint has copied yet, waiting
 * for neither the writer nor a reader; another checkpoint under way makes it a no-op. Answers the
 * WAL's state after it (frames in the WAL, frames copied), equal from one pass to the next while
 * nothing is written.
 */
export function prepareCheckpoint(sqlite: BetterSqlite3.Database): () => string {
  const checkpoint = sqlite.prepare<[], [bigint, bigint, bigint]>('PRAGMA wal_checkpoint(PASSIVE)').raw(true);
  return () => {
    const [, frames, copied] = checkpoint.get() ?? [];
    return `${frames}/${copied}`;
  };
}
