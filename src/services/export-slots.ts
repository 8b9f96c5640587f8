/**
 * @fileoverview How many exports stream at once in this process: at most `maxPerUser` of one account
 * and `maxConcurrent` of all accounts together (EXPORT_MAX_PER_USER, EXPORT_MAX_CONCURRENT). An
 * export holds its slot from the start of its stream until the stream is over (ended, failed or its
 * client gone); `release` may be called any number of times and frees the slot once.
 */

export interface ExportSlot {
  /** Frees the slot; later calls do nothing. */
  readonly release: () => void;
}

/** Why no slot was given: the account already streams its most, or the process does. */
export type ExportSlotRefusal = 'user' | 'process';

export class ExportSlots {
  private readonly perUser = new Map<string, number>();
  private total = 0;

  constructor(
    readonly maxPerUser: number,
    readonly maxConcurrent: number,
  ) {}

  /** A slot for an export of `userId`, or why there is none. */
  take(userId: string): ExportSlot | ExportSlotRefusal {
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= this.maxPerUser) return 'user';
    if (this.total >= this.maxConcurrent) return 'process';
    this.perUser.set(userId, mine + 1);
    this.total += 1;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.total -= 1;
        const left = (this.perUser.get(userId) ?? 1) - 1;
        if (left > 0) this.perUser.set(userId, left);
        else this.perUser.delete(userId);
      },
    };
  }

  /** Exports streaming now. */
  get running(): number {
    return this.total;
  }
}
