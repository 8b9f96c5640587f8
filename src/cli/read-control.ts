/**
 * @fileoverview The slots of the Int32 array a read pool shares with its workers
 * (read-pool.ts, read-worker.ts): where the workers take their next batch, how many they have
 * posted, and who claimed each batch.
 */

/** The next batch the workers take from the back is this cursor less one. */
export const CURSOR_BACK = 0;
/** Batches posted by all workers (the calling thread waits on it). */
export const CURSOR_DONE = 1;
/** Batch `i`'s claim is at `CLAIM_BASE + i`: 0 free, {@link CLAIM_MAIN} or {@link CLAIM_WORKER}. */
export const CLAIM_BASE = 2;
export const CLAIM_MAIN = 1;
export const CLAIM_WORKER = 2;
