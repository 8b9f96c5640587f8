/**
 * @fileoverview A mutex held on behalf of overlapping users: the first to enter takes it, the last
 * to leave lets it go. Somebody else waiting for the mutex stops new users from entering: they wait
 * until the current ones have left and the waiter has had its turn, then enter together.
 *
 * The SQLite ingest writer holds the app's write lock this way while groups of uploads are at its
 * thread (src/ingest/sqlite/group-runner.ts): groups sent while another is written overlap, and
 * the app's own write transactions still get their turn between two of them.
 */
import type { Mutex } from './mutex.js';

export class SharedHold {
  private users = 0;
  private release: (() => void) | undefined;
  /** The mutex asked for again, behind a waiter, by the users who arrived after it. */
  private taking: Promise<void> | undefined;

  constructor(private readonly mutex: Mutex) {}

  /** Resolves once the caller is a user of the held mutex; call `leave` once done. */
  enter(): Promise<void> {
    if (this.release !== undefined && !this.mutex.hasWaiters) {
      this.users += 1;
      return Promise.resolve();
    }
    this.taking ??= this.mutex.acquire().then((release) => {
      this.release = release;
      this.taking = undefined;
    });
    return this.taking.then(() => {
      this.users += 1;
    });
  }

  leave(): void {
    this.users -= 1;
    if (this.users > 0 || this.release === undefined) return;
    const release = this.release;
    this.release = undefined;
    release();
  }
}
