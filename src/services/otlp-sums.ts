/**
 * @fileoverview Pure steps of the OTLP receiver: a counter point's increment against its series'
 * last value, counted usage folded per (half-hour, source, model), and the absolute bucket
 * uploaded from a running sum (docs/otlp.md, "From increments to stored buckets").
 */
import { billableTokens } from '../domain/billable.js';
import type { Columns } from '../otlp/agents.js';
import type { Bucket } from '../domain/bucket.js';
import type { SeriesRow, SumRow } from '../db/queries/otlp.js';

/** The increment a point brings, and its series' new state; a cumulative series restarts on a new start time or a lower value. */
export function increment(
  point: { seriesKey: string; startNanos: string; cumulative: boolean; value: bigint },
  last: SeriesRow | undefined,
): { increment: bigint; state: SeriesRow | undefined } {
  if (!point.cumulative) return { increment: point.value, state: undefined };
  const state = { key: point.seriesKey, startNanos: point.startNanos, lastValue: point.value };
  if (last === undefined || last.startNanos !== point.startNanos || point.value < last.lastValue)
    return { increment: point.value, state };
  return { increment: point.value - last.lastValue, state };
}

/** A counter's increments in one (source, half-hour, model, type), and how many points brought them. */
export interface IncrementGroup {
  source: string;
  hourStart: number;
  model: string;
  type: string | undefined;
  increment: bigint;
  points: number;
}

/**
 * Counter increments summed per (source, half-hour, model, type) before they become columns (an
 * increment's columns are linear in it): one addition per point, through nested maps rather than a
 * key text made per point.
 */
export class IncrementSums {
  private readonly groups = new Map<string, Map<number, Map<string, Map<string | undefined, IncrementGroup>>>>();
  readonly list: IncrementGroup[] = [];

  add(source: string, hourStart: number, model: string, type: string | undefined, increment: bigint): void {
    let byHour = this.groups.get(source);
    if (byHour === undefined) this.groups.set(source, (byHour = new Map()));
    let byModel = byHour.get(hourStart);
    if (byModel === undefined) byHour.set(hourStart, (byModel = new Map()));
    let byType = byModel.get(model);
    if (byType === undefined) byModel.set(model, (byType = new Map()));
    const group = byType.get(type);
    if (group === undefined) {
      const created = { source, hourStart, model, type, increment, points: 1 };
      byType.set(type, created);
      this.list.push(created);
      return;
    }
    group.points += 1;
    if (increment !== 0n) group.increment += increment;
  }
}

export const groupKey = (hourStart: number, source: string, model: string) =>
  `${hourStart}\u0000${source}\u0000${model}`;

/** Adds counted columns to the (half-hour, source, model) sum they belong to. */
export function addTo(sums: Map<string, SumRow>, hourStart: number, source: string, model: string, c: Columns): void {
  const key = groupKey(hourStart, source, model);
  const sum = sums.get(key);
  if (sum === undefined) {
    sums.set(key, { hourStart, source, model, ...c });
    return;
  }
  // A counter point moves two columns of five: adding 0n would still make a new bigint.
  if (c.input !== 0n) sum.input += c.input;
  if (c.cached !== 0n) sum.cached += c.cached;
  if (c.output !== 0n) sum.output += c.output;
  if (c.reasoning !== 0n) sum.reasoning += c.reasoning;
  if (c.total !== 0n) sum.total += c.total;
}

/** The bucket stored for a running sum: never negative; `total` covers every channel as for the CLI's sources. */
export function bucketOf(sum: SumRow): Bucket {
  const nonNegative = (n: bigint) => (n < 0n ? 0n : n);
  const input = nonNegative(sum.input);
  const cached = nonNegative(sum.cached);
  const output = nonNegative(sum.output);
  const reasoning = nonNegative(sum.reasoning);
  const covered = sum.source === 'codex' ? input + output : input + cached + output + reasoning;
  const total = sum.total > covered ? sum.total : covered;
  const counts = { input, cached, output, reasoning, total };
  return {
    hourStart: sum.hourStart,
    source: sum.source,
    model: sum.model,
    projectKey: '',
    projectRef: null,
    ...counts,
    billable: billableTokens(sum.source, counts),
  };
}
