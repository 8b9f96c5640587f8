/**
 * @fileoverview Tools that keep only a running total per session (Factory Droid, Goose) give no
 * per-request times. The parser remembers, per session, the increases it has seen as segments
 * (time, counts) and files each new increase at the time the session last changed, so usage
 * lands in the half-hour it grew (to the resolution of the syncs). A total that went down (a
 * replaced or reset session) starts the session over.
 */
import { isRecord } from './json-file.js';
import { addInto, packCounts, unpackCounts, zeroCounts, type Counts } from './usage.js';

export interface Segment {
  ts: number;
  c: number[];
}

/** Segments already remembered for a session, from a parser's saved state. */
export function segmentsOf(saved: unknown): Segment[] {
  if (!Array.isArray(saved)) return [];
  return saved.filter((s): s is Segment => isRecord(s) && typeof s['ts'] === 'number' && Array.isArray(s['c']));
}

/** The session's segments once its running total is `current` at time `ts`. */
export function grow(previous: readonly Segment[], current: Counts, ts: number): Segment[] {
  const seen = zeroCounts();
  for (const s of previous) addInto(seen, unpackCounts(s.c));
  const grew =
    current.input >= seen.input &&
    current.cached >= seen.cached &&
    current.output >= seen.output &&
    current.reasoning >= seen.reasoning;
  const delta = { ...current };
  if (grew) addInto(delta, seen, -1);
  const kept = grew ? [...previous] : [];
  if (delta.total > 0) kept.push({ ts: Math.round(ts), c: packCounts(delta) });
  return kept;
}
