/**
 * @fileoverview A user's UTC day packed into one text: the `usage_days` read model (one row per
 * (user, UTC epoch day), docs/analytics.md). The text holds the day's six sums, then each non-empty
 * half-hour of the day as its slot (0..47) followed by its six sums, slots ascending, all
 * comma-separated in {@link TokenCounts} order (input, cached, output, reasoning, total, billable):
 *
 *     120,0,30,0,150,150,20,100,0,20,0,120,120,21,20,0,10,0,30,30
 *
 * is a day of 150 tokens in two half-hours, slots 20 and 21. A day whose sums all return to zero
 * is `0,0,0,0,0,0`. Decimal text rather than a binary blob: both engines store and concatenate it
 * as it is, the read path scans it without allocating (db/queries/day-pieces.ts), and it stays
 * readable in a SQL shell.
 */
import { isZeroCounts, zeroCounts, type TokenCounts } from './token-counts.js';

/** Half-hour slots in a UTC day. */
export const SLOTS_PER_DAY = 48;

/** Counts per sum in the text: one per {@link TokenCounts} field. */
const WIDTH = 6;

/** A change to one half-hour of a day. */
export interface SlotDelta extends TokenCounts {
  readonly slot: number;
}

function sumsText(s: TokenCounts): string {
  return `${s.input},${s.cached},${s.output},${s.reasoning},${s.total},${s.billable}`;
}

function sumsAt(parts: readonly string[], at: number): TokenCounts {
  return {
    input: BigInt(parts[at] as string),
    cached: BigInt(parts[at + 1] as string),
    output: BigInt(parts[at + 2] as string),
    reasoning: BigInt(parts[at + 3] as string),
    total: BigInt(parts[at + 4] as string),
    billable: BigInt(parts[at + 5] as string),
  };
}

function added(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    input: a.input + b.input,
    cached: a.cached + b.cached,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
    total: a.total + b.total,
    billable: a.billable + b.billable,
  };
}

function split(text: string): string[] {
  const parts = text.split(',');
  if (parts.length < WIDTH || (parts.length - WIDTH) % (WIDTH + 1) !== 0)
    throw new Error(`a packed day has ${parts.length} numbers`);
  return parts;
}

/** The day's six sums (the first six numbers of a packed day). */
export function dayTotalsOf(text: string): TokenCounts {
  return sumsAt(split(text), 0);
}

/** The day's sums and its non-empty half-hours, slots ascending. */
export function unpackDay(text: string): { totals: TokenCounts; slots: SlotDelta[] } {
  const parts = split(text);
  const slots: SlotDelta[] = [];
  for (let at = WIDTH; at < parts.length; at += WIDTH + 1)
    slots.push({ slot: Number(parts[at]), ...sumsAt(parts, at + 1) });
  return { totals: sumsAt(parts, 0), slots };
}

/** Packs a day from its non-empty half-hours (any order; zero ones are left out). */
export function packDay(slots: readonly SlotDelta[]): string {
  return addToDay(undefined, slots);
}

/**
 * The packed day after adding `deltas` (several for one slot are summed) to `stored` (undefined:
 * an empty day). Only the half-hours a delta names are parsed and rewritten; the others are copied
 * as they are. A half-hour whose sums reach zero is dropped.
 */
export function addToDay(stored: string | undefined, deltas: readonly SlotDelta[]): string {
  const bySlot = new Map<number, TokenCounts>();
  let totals = zeroCounts();
  for (const d of deltas) {
    if (!(Number.isInteger(d.slot) && d.slot >= 0 && d.slot < SLOTS_PER_DAY))
      throw new RangeError(`slot ${d.slot} is not a half-hour of a day`);
    const seen = bySlot.get(d.slot);
    bySlot.set(d.slot, seen === undefined ? d : added(seen, d));
    totals = added(totals, d);
  }
  const parts = stored === undefined ? undefined : split(stored);
  if (parts !== undefined) totals = added(totals, sumsAt(parts, 0));
  const out: string[] = [sumsText(totals)];
  const slots = [...bySlot.keys()].sort((a, b) => a - b);
  let next = 0; // index into `slots` of the next delta to place
  const place = (upTo: number): void => {
    for (; next < slots.length && (slots[next] as number) < upTo; next++) {
      const slot = slots[next] as number;
      const sums = bySlot.get(slot) as TokenCounts;
      if (!isZeroCounts(sums)) out.push(`${slot},${sumsText(sums)}`);
    }
  };
  if (parts !== undefined) {
    for (let at = WIDTH; at < parts.length; at += WIDTH + 1) {
      const slot = Number(parts[at]);
      place(slot);
      const delta = bySlot.get(slot);
      if (delta === undefined) {
        out.push(parts.slice(at, at + WIDTH + 1).join(','));
        continue;
      }
      next++;
      const sums = added(sumsAt(parts, at + 1), delta);
      if (!isZeroCounts(sums)) out.push(`${slot},${sumsText(sums)}`);
    }
  }
  place(SLOTS_PER_DAY);
  return out.join(',');
}
