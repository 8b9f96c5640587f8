/**
 * @fileoverview Pure: the leaderboard's per-period family sums (docs/leaderboard.md, "Snapshots"),
 * as deltas. Each change to a user's usage of one UTC day and model — billable tokens and stored
 * cost in micro-dollars — moves the user's row of that day's ISO week, of its UTC month, and the
 * all-time row, in the model's family. The ingest writers (an upload's `usage_daily` changes) and
 * the repricing swap (changed stored costs) both add their changes here, so both keep the tables
 * by the same rules.
 */
import { monthIndexOfEpochDay } from './calendar.js';
import { modelFamily } from './model-family.js';

/** Billable tokens and cost (micro-dollars) per leaderboard family. */
export interface FamilyDelta {
  gpt: bigint;
  claude: bigint;
  other: bigint;
  gptCost: bigint;
  claudeCost: bigint;
  otherCost: bigint;
}

export interface PeriodDelta extends FamilyDelta {
  /** ISO week number or UTC month number. */
  readonly period: number;
}

export interface PeriodDeltas {
  readonly weeks: PeriodDelta[];
  readonly months: PeriodDelta[];
  /** The all-time row, or null when nothing moves. */
  readonly total: FamilyDelta | null;
}

/** ISO week number (weeks since the Monday before the epoch) of a UTC epoch day. */
export function isoWeekOf(epochDay: number): number {
  return Math.floor((epochDay + 3) / 7);
}

export const zeroFamilies = (): FamilyDelta => ({
  gpt: 0n,
  claude: 0n,
  other: 0n,
  gptCost: 0n,
  claudeCost: 0n,
  otherCost: 0n,
});

const moves = (f: FamilyDelta): boolean =>
  f.gpt !== 0n || f.claude !== 0n || f.other !== 0n || f.gptCost !== 0n || f.claudeCost !== 0n || f.otherCost !== 0n;

function addTo(into: FamilyDelta, family: 'gpt' | 'claude' | 'other', billable: bigint, costMicros: bigint): void {
  into[family] += billable;
  if (family === 'gpt') into.gptCost += costMicros;
  else if (family === 'claude') into.claudeCost += costMicros;
  else into.otherCost += costMicros;
}

/** One user's period deltas, summed from changes of (UTC day, model). */
export class PeriodDeltaSum {
  private readonly weeks = new Map<number, PeriodDelta>();
  private readonly months = new Map<number, PeriodDelta>();
  private readonly total = zeroFamilies();

  /** Adds a change of `billable` tokens and `costMicros` to the usage of UTC epoch day `day` and `model`. */
  add(day: number, model: string, billable: bigint, costMicros: bigint): void {
    if (billable === 0n && costMicros === 0n) return;
    const family = modelFamily(model);
    const week = isoWeekOf(day);
    let w = this.weeks.get(week);
    if (w === undefined) this.weeks.set(week, (w = { period: week, ...zeroFamilies() }));
    const month = monthIndexOfEpochDay(day);
    let m = this.months.get(month);
    if (m === undefined) this.months.set(month, (m = { period: month, ...zeroFamilies() }));
    addTo(w, family, billable, costMicros);
    addTo(m, family, billable, costMicros);
    addTo(this.total, family, billable, costMicros);
  }

  /** The rows that move (zero deltas left out). */
  deltas(): PeriodDeltas {
    return {
      weeks: [...this.weeks.values()].filter(moves),
      months: [...this.months.values()].filter(moves),
      total: moves(this.total) ? this.total : null,
    };
  }
}
