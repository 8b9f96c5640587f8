/**
 * @fileoverview "Pieces" from `usage_days`: sums, across sources and models, over the runs of whole
 * UTC half-hours that cross neither a UTC midnight nor a cut point the caller names (local day or
 * month starts). Each piece lies inside one local day, so the domain folds assign it exactly as
 * they would assign its buckets. SQL sees only epoch days; the cutting is done here.
 *
 * A `usage_days` row packs a day's sums and then its non-empty half-hours, slots ascending
 * (domain/day-slots.ts). One query reads the range's rows as one text (`day,counts;day,counts;…`).
 * A day is cut at 0, its cut phases and 48: the sums before each phase come from the half-hours
 * below the day's last phase (the scan of a row stops there and jumps to the next row), the sum
 * before 48 is the day's own sums. So a day in UTC reads no half-hour at all, and one in New York
 * only those before 05:00 UTC.
 *
 * Counts of up to 15 digits are parsed as doubles, and the pieces come back as doubles when the sum
 * of their absolute values is at most 2^53 − 1 (every fold of them is then exact); otherwise the
 * same text is parsed again as `bigint`.
 */
import { SLOTS_PER_DAY } from '../../domain/day-slots.js';
import { COUNT_WIDTH, EXACT_DOUBLE_LIMIT, type UsageColumns } from '../../domain/usage-columns.js';
import { HALF_HOUR_MS } from '../../domain/calendar.js';
import type { Db } from '../connect.js';
import { rawRows } from '../raw-rows.js';

const DAYS_SQL = {
  sqlite: `select group_concat(day || ',' || counts, ';') from usage_days where user_id = @p1 and day >= @p2 and day <= @p3`,
  postgres: `select string_agg(day || ',' || counts, ';') from usage_days where user_id = $1 and day >= $2 and day <= $3`,
};

/** Numbers in an entry: a slot and its counts. */
const ENTRY = 1 + COUNT_WIDTH;

/** What to read and where to cut: the range's slots and each day's cut phases. */
interface Plan {
  /** First half-hour index of the range, and the one after its last. */
  readonly first: number;
  readonly last: number;
  readonly firstDay: number;
  readonly lastDay: number;
  /** Each day's boundaries (by index from `firstDay`): 0, its cut phases ascending, 48. */
  readonly bounds: number[][];
}

/** First half-hour index whose bucket start is at or after `ms` (buckets start on UTC half-hours). */
function slotAtOrAfter(ms: number): number {
  return Math.ceil(ms / HALF_HOUR_MS);
}

function plan(startMs: number, endMs: number, cutsMs: readonly number[]): Plan | undefined {
  const first = slotAtOrAfter(startMs);
  const last = slotAtOrAfter(endMs); // exclusive
  if (last <= first) return undefined;
  const firstDay = Math.floor(first / SLOTS_PER_DAY);
  const lastDay = Math.floor((last - 1) / SLOTS_PER_DAY);
  const phases: number[][] = Array.from({ length: lastDay - firstDay + 1 }, () => []);
  const addCut = (slot: number): void => {
    if (slot < first || slot > last) return;
    const day = Math.floor(slot / SLOTS_PER_DAY);
    const k = slot - day * SLOTS_PER_DAY;
    const list = phases[day - firstDay];
    if (k !== 0 && list !== undefined && !list.includes(k)) list.push(k);
  };
  addCut(first);
  addCut(last);
  for (const cut of cutsMs) addCut(slotAtOrAfter(cut));
  const bounds = phases.map((list) => [0, ...list.sort((a, b) => a - b), SLOTS_PER_DAY]);
  return { first, last, firstDay, lastDay, bounds };
}

/** One row's numbers: `day, six sums, (slot, six counts)…`, as far as the scan went. */
interface Row<T> {
  readonly values: ArrayLike<T>;
  readonly start: number;
  readonly end: number;
}

interface Arithmetic<T> {
  readonly zero: T;
  add(a: T, b: T): T;
  sub(a: T, b: T): T;
  toNumber(v: T): number;
}

const DOUBLES: Arithmetic<number> = { zero: 0, add: (a, b) => a + b, sub: (a, b) => a - b, toNumber: (v) => v };
const BIGINTS: Arithmetic<bigint> = { zero: 0n, add: (a, b) => a + b, sub: (a, b) => a - b, toNumber: Number };

/** The half-hour below which a day's entries are needed: its last boundary before 48 (0: none). */
function scanLimit(p: Plan, day: number): number {
  const b = p.bounds[day - p.firstDay];
  return b === undefined ? 0 : (b[b.length - 2] as number);
}

/** Most boundaries a day can have: 0, 47 cut phases, 48. */
const MAX_BOUNDS = SLOTS_PER_DAY + 1;

/**
 * Cuts the days of `rows` into pieces (rows outside the plan's days are skipped), pushing each
 * non-empty piece's first half-hour and counts; returns the sum of the pieces' absolute values.
 * Runs for every day of a long range: flat scratch arrays, nothing allocated per day.
 */
function cutDays<T>(p: Plan, rows: readonly Row<T>[], math: Arithmetic<T>, hourStarts: number[], counts: T[]): number {
  let sumAbs = 0;
  const run = new Array<T>(COUNT_WIDTH);
  // sums[j·6 + f] = count f of the half-hours below the day's boundary j.
  const sums = new Array<T>(MAX_BOUNDS * COUNT_WIDTH);
  const record = (j: number): void => {
    for (let f = 0; f < COUNT_WIDTH; f++) sums[j * COUNT_WIDTH + f] = run[f] as T;
  };
  for (const { values, start, end } of rows) {
    const day = math.toNumber(values[start] as T);
    const bounds = p.bounds[day - p.firstDay];
    if (bounds === undefined) continue;
    const last = bounds.length - 1;
    const limit = bounds[last - 1] as number;
    run.fill(math.zero);
    let j = 0;
    for (let at = start + 1 + COUNT_WIDTH; at + ENTRY <= end; at += ENTRY) {
      const slot = math.toNumber(values[at] as T);
      if (slot >= limit) break;
      for (; (bounds[j] as number) <= slot; j++) record(j);
      for (let f = 0; f < COUNT_WIDTH; f++) run[f] = math.add(run[f] as T, values[at + 1 + f] as T);
    }
    for (; j < last; j++) record(j);
    // The running sums are exact as doubles while the largest stays below 2^53 (counts are never
    // negative, so it is the last): counted into the total the caller checks.
    for (let f = 0; f < COUNT_WIDTH; f++) sumAbs += Math.abs(math.toNumber(run[f] as T));
    for (let f = 0; f < COUNT_WIDTH; f++) sums[last * COUNT_WIDTH + f] = values[start + 1 + f] as T;
    for (let k = 0; k < last; k++) {
      const slot = day * SLOTS_PER_DAY + (bounds[k] as number);
      if (slot < p.first || slot >= p.last) continue;
      const lo = k * COUNT_WIDTH;
      const hi = lo + COUNT_WIDTH;
      let any = false;
      for (let f = 0; f < COUNT_WIDTH; f++)
        if (math.toNumber(math.sub(sums[hi + f] as T, sums[lo + f] as T)) !== 0) any = true;
      if (!any) continue;
      hourStarts.push(slot * HALF_HOUR_MS);
      for (let f = 0; f < COUNT_WIDTH; f++) {
        const v = math.sub(sums[hi + f] as T, sums[lo + f] as T);
        counts.push(v);
        sumAbs += Math.abs(math.toNumber(v));
      }
    }
  }
  return sumAbs;
}

const ZERO = 48;
const NINE = 57;
const COMMA = 44;
const SEMICOLON = 59;
/** Digits a double holds exactly with room to spare: below 10^15 < 2^50. */
const SMALL_DIGITS = 15;

/**
 * The rows of a packed text as doubles, each row's entries read only below its day's
 * {@link scanLimit}; undefined when a number has more than {@link SMALL_DIGITS} digits or the text
 * holds anything else (the exact parser then decides). A scan without substrings.
 */
function parseRows(p: Plan, text: string): Row<number>[] | undefined {
  const values = new Float64Array((text.length >> 1) + 1);
  const rows: Row<number>[] = [];
  let n = 0;
  let rowStart = 0;
  let limit = -1; // the current row's scan limit, once its day is read
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : SEMICOLON;
    if (c >= ZERO && c <= NINE) {
      value = value * 10 + (c - ZERO);
      digits++;
      continue;
    }
    if (digits === 0 || digits > SMALL_DIGITS || (c !== COMMA && c !== SEMICOLON)) return undefined;
    values[n++] = value;
    value = 0;
    digits = 0;
    const read = n - rowStart;
    if (read === 1) limit = scanLimit(p, values[rowStart] as number);
    // Past the day's sums, at an entry's first number (its slot): stop reading once it reaches the limit.
    const past = read > 1 + COUNT_WIDTH && (read - 1 - COUNT_WIDTH) % ENTRY === 1 && (values[n - 1] as number) >= limit;
    if (c === SEMICOLON || past) {
      rows.push({ values, start: rowStart, end: past ? n - 1 : n });
      if (c !== SEMICOLON) {
        const next = text.indexOf(';', i);
        i = next < 0 ? text.length : next;
      }
      n = past ? n - 1 : n;
      rowStart = n;
    }
  }
  return rows;
}

/** The rows of a packed text as bigint, read whole (the exact fallback of {@link parseRows}). */
function parseBigRows(text: string): Row<bigint>[] {
  return text.split(';').map((row) => {
    const values = row.split(',').map((t) => BigInt(t));
    return { values, start: 0, end: values.length };
  });
}

/**
 * Sums (across sources and models) over the runs of whole UTC half-hours inside `[startMs, endMs)`
 * that cross neither a UTC midnight nor any of `cutsMs` (instants, e.g. local day starts), in
 * columns with `hourStart` = the run's first half-hour. Empty runs are left out.
 */
export async function listPieces(
  db: Db,
  userId: string,
  startMs: number,
  endMs: number,
  cutsMs: readonly number[],
): Promise<UsageColumns> {
  const p = plan(startMs, endMs, cutsMs);
  if (p === undefined) return { hourStarts: [], counts: new Float64Array(0) };
  const rows = await rawRows(db, DAYS_SQL, [userId, p.firstDay, p.lastDay]);
  const packed = rows[0]?.[0];
  const text = typeof packed === 'string' ? packed : '';
  if (text === '') return { hourStarts: [], counts: new Float64Array(0) };
  const fast = parseRows(p, text);
  if (fast !== undefined) {
    const hourStarts: number[] = [];
    const counts: number[] = [];
    if (cutDays(p, fast, DOUBLES, hourStarts, counts) <= EXACT_DOUBLE_LIMIT)
      return { hourStarts, counts: Float64Array.from(counts) };
  }
  const hourStarts: number[] = [];
  const counts: bigint[] = [];
  cutDays(p, parseBigRows(text), BIGINTS, hourStarts, counts);
  return { hourStarts, counts };
}
