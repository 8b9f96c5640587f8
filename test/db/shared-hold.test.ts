/**
 * The mutex held on behalf of overlapping users (src/db/shared-hold.ts): taken by the first user,
 * let go by the last, and let go between users when somebody else waits for it. Pure: no database.
 */
import { describe, expect, it } from 'vitest';
import { Mutex } from '../../src/db/mutex.js';
import { SharedHold } from '../../src/db/shared-hold.js';

/** Lets every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Each of `users` leaves in turn: the mutex stays taken until the last has left. */
function leaveAll(hold: SharedHold, mutex: Mutex, users: number): void {
  for (let left = 1; left <= users; left += 1) {
    expect(mutex.isFree).toBe(false);
    hold.leave();
  }
  expect(mutex.isFree).toBe(true);
}

describe('a mutex held by overlapping users', () => {
  it('is taken by the first user and let go by the last', async () => {
    const mutex = new Mutex();
    const hold = new SharedHold(mutex);
    await hold.enter();
    await hold.enter(); // a second user while the first is in: no wait
    leaveAll(hold, mutex, 2);
  });

  it('lets a waiter in once its users have left, and new users wait behind it, then enter together', async () => {
    const mutex = new Mutex();
    const hold = new SharedHold(mutex);
    const order: string[] = [];
    await hold.enter();
    const app = mutex.run(() => {
      order.push('app');
    });
    // Users arriving while the app waits enter after it, not beside the user still in.
    const late = [hold.enter().then(() => order.push('late 1')), hold.enter().then(() => order.push('late 2'))];
    await settle();
    expect(order).toEqual([]);
    hold.leave(); // the last user of the first turn
    await app;
    await Promise.all(late);
    expect(order).toEqual(['app', 'late 1', 'late 2']);
    leaveAll(hold, mutex, 2); // the late users hold it together
  });

  it('waits for a mutex held by somebody else', async () => {
    const mutex = new Mutex();
    const hold = new SharedHold(mutex);
    const release = await mutex.acquire();
    let entered = false;
    const entering = hold.enter().then(() => (entered = true));
    await settle();
    expect(entered).toBe(false);
    release();
    await entering;
    leaveAll(hold, mutex, 1);
  });
});
