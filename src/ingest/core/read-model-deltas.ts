/**
 * @fileoverview Pure: how one upload's rollup changes move the derived read models, aggregated
 * per upload so each derived row is written once, however many rollup rows feed it.
 *
 * - `daily`: per (UTC epoch day, source, model) — `usage_daily`, which also stores the row's cost;
 *   its rows' changes, cost included, summed per block of 16 days ({@link BlockSums}) — `usage_blocks`;
 * - `days`: per UTC epoch day, the changes to its half-hours — the packed `usage_days` row
 *   (domain/day-slots.ts), rewritten once per upload and day.
 *
 * The leaderboard's per-period family sums follow from the `daily` deltas once each row is priced
 * (its cost's change is the new row's cost minus the stored one): `domain/leaderboard-periods.ts`.
 *
 * The writers of both engines apply exactly these deltas inside the ingest transaction
 * (docs/architecture.md): one code path decides what changes, the engines only store it.
 */
import {
  addCounts,
  copyCounts,
  isZeroCounts,
  zeroCounts,
  type PricedCounts,
  type TokenCounts,
} from '../../domain/token-counts.js';
import type { SlotDelta } from '../../domain/day-slots.js';
import type { RollupDelta } from './plan.js';
import { BLOCK_DAYS, DAY_MS, HALF_HOUR_MS } from '../../domain/calendar.js';

export interface DailyDelta extends TokenCounts {
  readonly day: number;
  readonly source: string;
  readonly model: string;
}

/** The changes to one UTC day's half-hours (summed per slot; a slot whose changes cancel is kept). */
export interface DayDelta {
  readonly day: number;
  readonly slots: SlotDelta[];
}

export interface ReadModelDeltas {
  readonly daily: DailyDelta[];
  readonly days: DayDelta[];
}

/** Aggregates an upload's rollup deltas into the derived read models' deltas (zero deltas left out). */
export function deriveReadModelDeltas(rollup: readonly RollupDelta[]): ReadModelDeltas {
  const daily = new Map<string, DailyDelta>();
  const days = new Map<number, Map<number, SlotDelta>>();

  for (const r of rollup) {
    const day = Math.floor(r.hourStart / DAY_MS);
    const dailyKey = `${day}\u0000${r.source}\u0000${r.model}`;
    const d = daily.get(dailyKey);
    if (d === undefined) daily.set(dailyKey, { day, source: r.source, model: r.model, ...copyCounts(r) });
    else addCounts(d, r);

    const slot = Math.floor((r.hourStart - day * DAY_MS) / HALF_HOUR_MS);
    let slots = days.get(day);
    if (slots === undefined) days.set(day, (slots = new Map()));
    const s = slots.get(slot);
    if (s === undefined) slots.set(slot, { slot, ...copyCounts(r) });
    else addCounts(s, r);
  }

  return {
    daily: [...daily.values()].filter((d) => !isZeroCounts(d)),
    days: [...days].flatMap(([day, slots]) => {
      const moved = [...slots.values()].filter((s) => !isZeroCounts(s));
      return moved.length > 0 ? [{ day, slots: moved }] : [];
    }),
  };
}

/** A `usage_daily` row's key. */
export interface DailyKey {
  readonly day: number;
  readonly source: string;
  readonly model: string;
}

/** A `usage_daily` row's absolute counts and cost (stored, or after a delta). */
export interface DailyRow extends TokenCounts {
  readonly costMicros: bigint;
}

/**
 * The row a daily delta leaves: stored counts (none: zeros) plus the delta, priced as a whole by
 * `costOf` (cost truncates per row, so it is recomputed from the counts rather than added).
 */
export function nextDailyRow(
  stored: TokenCounts | undefined,
  delta: DailyDelta,
  costOf: (source: string, model: string, utcEpochDay: number, counts: Readonly<PricedCounts>) => bigint,
): DailyRow & DailyKey {
  const sums: TokenCounts = stored ? { ...stored } : zeroCounts();
  addCounts(sums, delta);
  const costMicros = costOf(delta.source, delta.model, delta.day, {
    input: sums.input,
    cached: sums.cached,
    output: sums.output,
    reasoning: sums.reasoning,
  });
  return { day: delta.day, source: delta.source, model: delta.model, ...sums, costMicros };
}

/** The change to one `usage_blocks` row: its days' changes of counts and stored cost. */
export interface BlockDelta extends TokenCounts {
  readonly block: number;
  readonly source: string;
  readonly model: string;
  costMicros: bigint;
}

/**
 * Sums the changes of an upload's `usage_daily` rows per (block, source, model), so each block row
 * is written once: the counts' delta, and the cost the row now stores less the one it stored
 * (`storedCost`, 0 for a new row) — the block's cost stays the sum of its days' stored costs.
 */
export class BlockSums {
  private readonly sums = new Map<string, BlockDelta>();

  add(delta: DailyDelta, storedCost: bigint, next: DailyRow): void {
    const block = Math.floor(delta.day / BLOCK_DAYS);
    const key = `${block}\u0000${delta.source}\u0000${delta.model}`;
    const cost = next.costMicros - storedCost;
    const b = this.sums.get(key);
    if (b === undefined)
      this.sums.set(key, { block, source: delta.source, model: delta.model, ...copyCounts(delta), costMicros: cost });
    else {
      addCounts(b, delta);
      b.costMicros += cost;
    }
  }

  /** The block rows that move (counts or cost). */
  values(): BlockDelta[] {
    return [...this.sums.values()].filter((b) => b.costMicros !== 0n || !isZeroCounts(b));
  }
}
