/**
 * @fileoverview Pure: how one upload's rollup changes move the derived read models, aggregated
 * per upload so each derived row is written once, however many rollup rows feed it.
 *
 * - `daily`: per (UTC epoch day, source, model) — `usage_daily`, which also stores the row's cost;
 *   its rows' changes, cost included, summed per block of 16 days ({@link BlockSums}) — `usage_blocks`;
 * - `days`: per UTC epoch day, the changes to its half-hours — the packed `usage_days` row
 *   (domain/day-slots.ts), rewritten once per upload and day;
 * - `weeks`, `months`, `total` — billable tokens per model family for the leaderboard's per-period
 *   tables (ISO week number `floor((day + 3) / 7)`, UTC month `year·12 + month − 1`).
 *
 * The writers of both engines apply exactly these deltas inside the ingest transaction
 * (docs/architecture.md): one code path decides what changes, the engines only store it.
 */
import { modelFamily } from '../domain/model-family.js';
import { addCounts, isZeroCounts, zeroCounts, type PricedCounts, type TokenCounts } from '../domain/token-counts.js';
import type { SlotDelta } from '../domain/day-slots.js';
import type { RollupDelta } from './plan.js';
import { BLOCK_DAYS, DAY_MS, HALF_HOUR_MS } from '../domain/calendar.js';

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

/** Billable tokens per leaderboard family. */
export interface FamilyDelta {
  gpt: bigint;
  claude: bigint;
  other: bigint;
}

export interface PeriodDelta extends FamilyDelta {
  /** ISO week number or UTC month number; 0 for the all-time row. */
  readonly period: number;
}

export interface ReadModelDeltas {
  readonly daily: DailyDelta[];
  readonly days: DayDelta[];
  readonly weeks: PeriodDelta[];
  readonly months: PeriodDelta[];
  /** The all-time row, or null when the upload moves no billable tokens. */
  readonly total: FamilyDelta | null;
}

/** UTC month number (`year·12 + month − 1`) of an instant. */
export function utcMonthOf(ms: number): number {
  const d = new Date(ms);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

/** ISO week number (weeks since the Monday before the epoch) of a UTC epoch day. */
export function isoWeekOf(epochDay: number): number {
  return Math.floor((epochDay + 3) / 7);
}

function sumsOf(d: TokenCounts): TokenCounts {
  return {
    input: d.input,
    cached: d.cached,
    output: d.output,
    reasoning: d.reasoning,
    total: d.total,
    billable: d.billable,
  };
}

function addFamily(into: FamilyDelta, model: string, billable: bigint): void {
  into[modelFamily(model)] += billable;
}

/** Aggregates an upload's rollup deltas into the derived read models' deltas (zero deltas left out). */
export function deriveReadModelDeltas(rollup: readonly RollupDelta[]): ReadModelDeltas {
  const daily = new Map<string, DailyDelta>();
  const days = new Map<number, Map<number, SlotDelta>>();
  const weeks = new Map<number, PeriodDelta>();
  const months = new Map<number, PeriodDelta>();
  const total: FamilyDelta = { gpt: 0n, claude: 0n, other: 0n };

  for (const r of rollup) {
    const day = Math.floor(r.hourStart / DAY_MS);
    const dailyKey = `${day}\u0000${r.source}\u0000${r.model}`;
    const d = daily.get(dailyKey);
    if (d === undefined) daily.set(dailyKey, { day, source: r.source, model: r.model, ...sumsOf(r) });
    else addCounts(d, r);

    const slot = Math.floor((r.hourStart - day * DAY_MS) / HALF_HOUR_MS);
    let slots = days.get(day);
    if (slots === undefined) days.set(day, (slots = new Map()));
    const s = slots.get(slot);
    if (s === undefined) slots.set(slot, { slot, ...sumsOf(r) });
    else addCounts(s, r);

    if (r.billable !== 0n) {
      const week = isoWeekOf(day);
      let w = weeks.get(week);
      if (w === undefined) weeks.set(week, (w = { period: week, gpt: 0n, claude: 0n, other: 0n }));
      addFamily(w, r.model, r.billable);
      const month = utcMonthOf(r.hourStart);
      let m = months.get(month);
      if (m === undefined) months.set(month, (m = { period: month, gpt: 0n, claude: 0n, other: 0n }));
      addFamily(m, r.model, r.billable);
      addFamily(total, r.model, r.billable);
    }
  }

  const familyMoves = (f: FamilyDelta) => f.gpt !== 0n || f.claude !== 0n || f.other !== 0n;
  return {
    daily: [...daily.values()].filter((d) => !isZeroCounts(d)),
    days: [...days].flatMap(([day, slots]) => {
      const moved = [...slots.values()].filter((s) => !isZeroCounts(s));
      return moved.length > 0 ? [{ day, slots: moved }] : [];
    }),
    weeks: [...weeks.values()].filter(familyMoves),
    months: [...months.values()].filter(familyMoves),
    total: familyMoves(total) ? total : null,
  };
}

/** A `usage_daily` row's new absolute counts and cost after a delta. */
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
): DailyRow {
  const sums: TokenCounts = stored ? { ...stored } : zeroCounts();
  addCounts(sums, delta);
  const costMicros = costOf(delta.source, delta.model, delta.day, {
    input: sums.input,
    cached: sums.cached,
    output: sums.output,
    reasoning: sums.reasoning,
  });
  return { ...sums, costMicros };
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
      this.sums.set(key, { block, source: delta.source, model: delta.model, ...sumsOf(delta), costMicros: cost });
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
