import { HALF_HOUR_MS } from '../domain/calendar.js';
/**
 * @fileoverview The CLI's one shape for token counts and the small pure helpers around it:
 * normalising raw numbers, per-field max and sums, timestamps to UTC half-hours, and the
 * instant window the server accepts. Parsers produce {@link UsageRecord}s in wire meaning
 * (see docs/wire-format.md); everything downstream only adds and compares them.
 */

/** The five counts of one upload bucket, already in the reporting source's wire meaning. */
export interface Counts {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
  total: number;
}

/** One usage observation from an agent log, before bucketing. */
export interface UsageRecord {
  /** Absolute instant in epoch milliseconds. */
  ts: number;
  source: string;
  model: string;
  counts: Counts;
  /** Working directory of the session, only used locally to find the git project. */
  cwd?: string | undefined;
  /** The agent's session (conversation) id where its log names one; only used locally (`report --by session`). */
  session?: string | undefined;
}

/** Largest count the server accepts in one field of one bucket. */
export const MAX_COUNT = 1_000_000_000_000;
/** Earliest instant the server accepts (2020-01-01T00:00:00Z). */
export const MIN_TS = Date.UTC(2020, 0, 1);

export function zeroCounts(): Counts {
  return { input: 0, cached: 0, output: 0, reasoning: 0, total: 0 };
}

/** A non-negative integer from anything a log may hold (missing, float, string, negative → 0). */
export function toCount(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : 0;
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(Math.floor(n), MAX_COUNT);
}

export function isZero(c: Counts): boolean {
  return c.input === 0 && c.cached === 0 && c.output === 0 && c.reasoning === 0 && c.total === 0;
}

export function addInto(target: Counts, add: Counts, sign: 1 | -1 = 1): void {
  target.input += sign * add.input;
  target.cached += sign * add.cached;
  target.output += sign * add.output;
  target.reasoning += sign * add.reasoning;
  target.total += sign * add.total;
}

export function maxCounts(a: Counts, b: Counts): Counts {
  return {
    input: Math.max(a.input, b.input),
    cached: Math.max(a.cached, b.cached),
    output: Math.max(a.output, b.output),
    reasoning: Math.max(a.reasoning, b.reasoning),
    total: Math.max(a.total, b.total),
  };
}

export function sameCounts(a: Counts, b: Counts): boolean {
  return (
    a.input === b.input &&
    a.cached === b.cached &&
    a.output === b.output &&
    a.reasoning === b.reasoning &&
    a.total === b.total
  );
}

/** Compact array form used in state files: [input, cached, output, reasoning, total]. */
export type PackedCounts = [number, number, number, number, number];

export function packCounts(c: Counts): PackedCounts {
  return [c.input, c.cached, c.output, c.reasoning, c.total];
}

export function unpackCounts(p: readonly number[]): Counts {
  return { input: p[0] ?? 0, cached: p[1] ?? 0, output: p[2] ?? 0, reasoning: p[3] ?? 0, total: p[4] ?? 0 };
}

/** The last `…Z` text {@link parseInstant} parsed, and its instant. */
const lastZ: { text: string; ms: number | undefined } = { text: '', ms: undefined };

/**
 * Epoch milliseconds from an ISO string or an epoch number in seconds or milliseconds
 * (logs mix both); `undefined` when it is not a usable instant.
 */
export function parseInstant(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  }
  if (typeof value === 'string' && value.length > 0) {
    // the usual form (`…Z`): neither pattern below can match a string ending in Z
    if (value.charCodeAt(value.length - 1) === 0x5a) {
      // a message's lines (one per content block) mostly repeat its time: parse it once
      if (value === lastZ.text) return lastZ.ms;
      const parsed = Date.parse(value);
      const ms = Number.isNaN(parsed) ? undefined : parsed;
      lastZ.text = value;
      lastZ.ms = ms;
      return ms;
    }
    if (/^\d+(\.\d+)?$/.test(value)) return parseInstant(Number(value));
    // a date-time without a zone designator is UTC (never the machine's local time)
    const iso = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)
      ? `${value.replace(' ', 'T')}Z`
      : value;
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** Start of the UTC half-hour holding `ts`. */
export function halfHourStart(ts: number): number {
  return Math.floor(ts / HALF_HOUR_MS) * HALF_HOUR_MS;
}

/** Whether the server would accept a bucket at this instant (2020-01-01 .. now + 1 day). */
export function isAcceptedInstant(ts: number, now: number): boolean {
  return ts >= MIN_TS && ts <= now + 24 * 3600 * 1000;
}

/** Lower-cased, trimmed, length-bounded model name; `unknown` when empty. */
export function normalizeModel(raw: unknown): string {
  if (typeof raw !== 'string') return 'unknown';
  const m = raw.trim().toLowerCase();
  return m.length === 0 ? 'unknown' : m.slice(0, 128);
}
