/** @fileoverview A tiny FIFO async mutex: serialises write transactions on the one SQLite connection. */

export class Mutex {
  private locked = false;
  private readonly waiters: Array<() => void> = [];

  /** True when nobody holds the lock, so a synchronous critical section may run at once. */
  get isFree(): boolean {
    return !this.locked;
  }

  /** True when somebody waits for the lock (its holder may want to let it go sooner). */
  get hasWaiters(): boolean {
    return this.waiters.length > 0;
  }

  async acquire(): Promise<() => void> {
    if (!this.locked) {
      this.locked = true;
      return () => this.release();
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
    return () => this.release();
  }

  /** Runs `fn` holding the lock. */
  async run<T>(fn: () => Promise<T> | T): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.locked = false;
  }
}
