/**
 * @fileoverview Refreshes the leaderboard soon after usage changed, so a user who just synced
 * finds themselves (docs/leaderboard.md, "Freshness"). An upload that changed usage marks the
 * snapshot stale; a refresh starts once the newest snapshot is at least `minAgeMs` old (at once
 * when it already is, after a short debounce that gathers a burst of uploads into one refresh).
 * One refresh at a time; usage that changes during it schedules the next. The periodic refresh
 * job stays the backstop.
 */
import type { Clock } from '../clock.js';

export interface FreshnessDeps {
  clock: Clock;
  /** Refreshes every period (joins one already running). */
  refresh: () => Promise<unknown>;
  /** When the oldest current snapshot was generated (epoch ms), undefined when a period has none. */
  oldestSnapshotAt: () => Promise<number | undefined>;
  minAgeMs: number;
  /** Gathers a burst of uploads into one refresh. */
  debounceMs?: number;
  onError: (error: unknown) => void;
}

export class LeaderboardFreshness {
  private stale = false;
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly deps: FreshnessDeps) {}

  /** Usage changed (an upload stored something). */
  usageChanged(): void {
    if (this.closed) return;
    this.stale = true;
    if (this.timer === undefined && this.busy === undefined) this.track(this.schedule());
  }

  /** Settles when no refresh is scheduled or running (tests). */
  async idle(): Promise<void> {
    while (this.busy !== undefined || this.timer !== undefined) {
      if (this.busy) await this.busy;
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch(this.deps.onError).finally(() => {
      if (this.busy === tracked) this.busy = undefined;
    });
    this.busy = tracked;
  }

  /** Sets the timer for the refresh: when the snapshot turns minAgeMs old, at the earliest after the debounce. */
  private async schedule(): Promise<void> {
    const oldest = await this.deps.oldestSnapshotAt();
    const untilOldEnough = oldest === undefined ? 0 : oldest + this.deps.minAgeMs - this.deps.clock.now();
    if (this.closed) return;
    const wait = Math.max(this.deps.debounceMs ?? 1_000, untilOldEnough);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.track(this.run());
    }, wait);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    if (this.closed || !this.stale) return;
    this.stale = false;
    await this.deps.refresh();
    // Usage that changed while the refresh ran is not in it.
    if (this.stale && !this.closed) await this.schedule();
  }
}
