/**
 * @fileoverview "Pieces" from `usage_day_prefix`: sums, across sources and models, over the runs
 * of whole UTC half-hours that cross neither a UTC midnight nor a cut point the caller names
 * (local day or month starts). Each piece lies inside one local day, so the domain folds assign
 * it exactly as they would assign its buckets. SQL sees only half-hour indexes and epoch days.
 *
 * The table holds two-level prefix sums per (user, k, UTC day): for k = 8, 16, …, 48 the
 * half-hours with index < k, for other k those from the start of k's block of 8 up to k. So
 * P(d, k) = row(8·⌊k/8⌋) + row(k) and a run [k0, k1) of day d is P(d, k1) − P(d, k0).
 *
 * One query reads the whole-day rows and the rows of each cut phase (and its block) for the days
 * that phase applies to, as one text of integers (SQLite builds it with `json_array`, about
 * twice as cheap as `||` concatenation), scanned without substrings. Counts of up to 15 digits
 * are parsed as doubles and the pieces come back as doubles when the sum of their absolute values
 * is at most 2^53 − 1 (every fold of them is then exact); otherwise the same text is parsed again
 * as `bigint`.
 */
import { COUNT_WIDTH, EXACT_DOUBLE_LIMIT, type UsageColumns } from '../../domain/usage-columns.js';
import type { Db } from '../connect.js';
import { rawRows } from '../raw-rows.js';
import { HALF_HOUR_MS } from '../../domain/calendar.js';

const SLOTS_PER_DAY = 48;
/** Half-hours per block of the two-level prefix (see the read-model migration). */
const BLOCK = 8;

/** (k, first day, last day) triples: SQLite takes them as JSON `[[k, from, to], …]`, PostgreSQL as three arrays. */
const JOIN = {
  sqlite: `from json_each(@p2) j cross join usage_day_prefix p
             on p.user_id = @p1 and p.k = (j.value ->> 0) and p.day >= (j.value ->> 1) and p.day <= (j.value ->> 2)`,
  postgres: `from unnest($2::bigint[], $3::bigint[], $4::bigint[]) as j(k, lo, hi)
             join usage_day_prefix p on p.user_id = $1 and p.k = j.k and p.day >= j.lo and p.day <= j.hi`,
};

/**
 * Entries `k, day, input, cached_input, output, reasoning, total, billable`, comma-separated
 * (SQLite wraps each entry in brackets, which the parser skips).
 */
const PREFIX_SQL = {
  sqlite: `select group_concat(json_array(p.k, p.day, p.input, p.cached_input, p.output, p.reasoning, p.total, p.billable)) ${JOIN.sqlite}`,
  postgres: `select string_agg(concat_ws(',', p.k, p.day, p.input, p.cached_input, p.output, p.reasoning, p.total, p.billable), ',') ${JOIN.postgres}`,
};

/** Entries `k, day, billable` only (the heatmap's one figure): a third of the text to build and parse. */
const PREFIX_BILLABLE_SQL = {
  sqlite: `select group_concat(json_array(p.k, p.day, p.billable)) ${JOIN.sqlite}`,
  postgres: `select string_agg(concat_ws(',', p.k, p.day, p.billable), ',') ${JOIN.postgres}`,
};

/** Position in a stored row (COUNT_FIELDS order) of each packed count after `k, day`. */
const ALL_FIELDS = [0, 1, 2, 3, 4, 5];
const BILLABLE_FIELDS = [5];

const ZERO = 48;
const NINE = 57;
const MINUS = 45;
const COMMA = 44;
const OPEN = 91;
const CLOSE = 93;
/** Digits a double holds exactly with room to spare: below 10^15 < 2^50. */
const SMALL_DIGITS = 15;

/**
 * The integers of a packed text (separated by `,`, `[` and `]`), as doubles; undefined when one
 * has more than {@link SMALL_DIGITS} digits or the text holds anything else (the exact parser
 * then decides). A scan without substrings: a year in New York is ~7,000 integers.
 */
function parseSmallIntegers(text: string): Float64Array | undefined {
  // Every integer takes at least one digit and one separator.
  const out = new Float64Array((text.length >> 1) + 1);
  let n = 0;
  let value = 0;
  let digits = 0;
  let negative = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    if (c >= ZERO && c <= NINE) {
      value = value * 10 + (c - ZERO);
      digits++;
    } else if (c === MINUS && digits === 0 && !negative) {
      negative = true;
    } else {
      if (digits > SMALL_DIGITS || (c !== COMMA && c !== OPEN && c !== CLOSE && i < text.length) || (negative && digits === 0)) return undefined;
      if (digits > 0) out[n++] = negative ? -value : value;
      value = 0;
      digits = 0;
      negative = false;
    }
  }
  return out.subarray(0, n);
}

/** The integers of a packed text as bigint (the exact fallback of {@link parseSmallIntegers}); throws on anything but integers. */
function parseBigIntegers(text: string): bigint[] {
  return text
    .split(/[,[\]]+/)
    .filter((t) => t !== '')
    .map((t) => BigInt(t));
}

/** First half-hour index whose bucket start is at or after `ms` (buckets start on UTC half-hours). */
function slotAtOrAfter(ms: number): number {
  return Math.ceil(ms / HALF_HOUR_MS);
}

/**
 * What to read and how to cut it: the cut phases per UTC day (besides 0 and 48), the (k, days)
 * triples to read, and where each read row goes in a flat store of {@link COUNT_WIDTH} counts per
 * (k, day). Row 0 of the store is all zeros and stands for P(d, 0) and absent block rows.
 */
interface Plan {
  readonly first: number;
  readonly last: number;
  readonly firstDay: number;
  readonly days: number;
  /** Cut phases of each day (by index from `firstDay`), ascending; undefined for a day without one. */
  readonly phases: (number[] | undefined)[];
  /** Number of phases over all days. */
  readonly phaseCount: number;
  readonly triples: [number, number, number][];
  /** Store row of (k, day) = 1 + kSlot[k] · days + (day − firstDay); −1 for a k not read. */
  readonly kSlot: Int32Array;
  readonly storeRows: number;
}

function plan(startMs: number, endMs: number, cutsMs: readonly number[]): Plan | undefined {
  const first = slotAtOrAfter(startMs);
  const last = slotAtOrAfter(endMs); // exclusive
  if (last <= first) return undefined;
  const firstDay = Math.floor(first / SLOTS_PER_DAY);
  const lastDay = Math.floor((last - 1) / SLOTS_PER_DAY);
  const days = lastDay - firstDay + 1;
  const phases = new Array<number[] | undefined>(days).fill(undefined);
  let phaseCount = 0;
  const addCut = (slot: number): void => {
    if (slot < first || slot > last) return;
    const day = Math.floor(slot / SLOTS_PER_DAY);
    const k = slot - day * SLOTS_PER_DAY;
    if (k === 0) return;
    const list = phases[day - firstDay];
    if (list === undefined) phases[day - firstDay] = [k];
    else if (!list.includes(k)) list.push(k);
    else return;
    phaseCount++;
  };
  addCut(first);
  addCut(last);
  for (let i = 0; i < cutsMs.length; i++) addCut(slotAtOrAfter(cutsMs[i] as number));
  // The whole day (k = 48) for every day, each cut phase only for its days (runs of consecutive days).
  const triples: [number, number, number][] = [[SLOTS_PER_DAY, firstDay, lastDay]];
  const open = new Array<[number, number, number] | undefined>(SLOTS_PER_DAY).fill(undefined);
  for (let i = 0; i < days; i++) {
    const list = phases[i];
    if (list === undefined) continue;
    if (list.length > 1) list.sort((x, y) => x - y);
    const day = firstDay + i;
    for (const k of list) {
      const run = open[k];
      if (run !== undefined && run[2] === day - 1) run[2] = day;
      else {
        const fresh: [number, number, number] = [k, day, day];
        open[k] = fresh;
        triples.push(fresh);
      }
    }
  }
  // Two-level prefix: P(d, k) = row(8·⌊k/8⌋) + row(k) when k is not a block boundary.
  for (const [k, lo, hi] of [...triples]) {
    if (k % BLOCK !== 0 && k > BLOCK) triples.push([k - (k % BLOCK), lo, hi]);
  }
  const kSlot = new Int32Array(SLOTS_PER_DAY + 1).fill(-1);
  let slots = 0;
  for (const [k] of triples) if (kSlot[k] === -1) kSlot[k] = slots++;
  return { first, last, firstDay, days, phases, phaseCount, triples, kSlot, storeRows: 1 + slots * days };
}

/** Store row of P(d, k)'s own row and of its block row (0 = zero row). */
function storeRow(p: Plan, k: number, dayIndex: number): number {
  const s = p.kSlot[k] as number;
  return s < 0 ? 0 : 1 + s * p.days + dayIndex;
}

const PIECE_STRIDE = 5;

/**
 * The pieces to compute, as five integers each: start slot, then the store rows of P(d, k1)
 * (own, block) and of P(d, k0) (own, block). Days without a whole-day row have no usage.
 */
function pieceLayout(p: Plan, hasDay: Uint8Array): Int32Array {
  const out = new Int32Array((p.days + p.phaseCount) * PIECE_STRIDE);
  let n = 0;
  const put = (startSlot: number, k0: number, k1: number, i: number): void => {
    if (startSlot < p.first || startSlot >= p.last) return;
    out[n] = startSlot;
    out[n + 1] = ownRow(p, k1, i);
    out[n + 2] = blockRow(p, k1, i);
    out[n + 3] = ownRow(p, k0, i);
    out[n + 4] = blockRow(p, k0, i);
    n += PIECE_STRIDE;
  };
  for (let i = 0; i < p.days; i++) {
    if (hasDay[i] === 0) continue;
    const dayStart = (p.firstDay + i) * SLOTS_PER_DAY;
    const cuts = p.phases[i];
    let k0 = 0;
    if (cuts !== undefined) {
      for (const k of cuts) {
        put(dayStart + k0, k0, k, i);
        k0 = k;
      }
    }
    put(dayStart + k0, k0, SLOTS_PER_DAY, i);
  }
  return out.subarray(0, n);
}

/** P(d, k) = store row {@link ownRow} + store row {@link blockRow} (P(d, 0) = 0). */
function ownRow(p: Plan, k: number, dayIndex: number): number {
  return k === 0 ? 0 : storeRow(p, k, dayIndex);
}

function blockRow(p: Plan, k: number, dayIndex: number): number {
  return k % BLOCK === 0 || k < BLOCK ? 0 : storeRow(p, k - (k % BLOCK), dayIndex);
}


/** Fills the store from the packed entries; returns the days that have a whole-day row. */
function fillStore<T>(p: Plan, values: ArrayLike<T>, width: number, store: { [i: number]: T }, toNumber: (v: T) => number): Uint8Array {
  const hasDay = new Uint8Array(p.days);
  const fields = width === 3 ? BILLABLE_FIELDS : ALL_FIELDS;
  for (let e = 0; e + width <= values.length; e += width) {
    const k = toNumber(values[e] as T);
    const dayIndex = toNumber(values[e + 1] as T) - p.firstDay;
    if (dayIndex < 0 || dayIndex >= p.days || !(k >= 0 && k <= SLOTS_PER_DAY) || (p.kSlot[k] as number) < 0) continue;
    if (k === SLOTS_PER_DAY) hasDay[dayIndex] = 1;
    const o = storeRow(p, k, dayIndex) * COUNT_WIDTH;
    for (let f = 0; f < fields.length; f++) store[o + (fields[f] as number)] = values[e + 2 + f] as T;
  }
  return hasDay;
}

function piecesFromNumbers(p: Plan, values: Float64Array, width: number): UsageColumns | undefined {
  const store = new Float64Array(p.storeRows * COUNT_WIDTH);
  const layout = pieceLayout(p, fillStore(p, values, width, store, (v) => v));
  const hourStarts: number[] = [];
  const counts = new Float64Array((layout.length / PIECE_STRIDE) * COUNT_WIDTH);
  let n = 0;
  let sumAbs = 0;
  for (let j = 0; j < layout.length; j += PIECE_STRIDE) {
    const hiA = (layout[j + 1] as number) * COUNT_WIDTH;
    const hiB = (layout[j + 2] as number) * COUNT_WIDTH;
    const loA = (layout[j + 3] as number) * COUNT_WIDTH;
    const loB = (layout[j + 4] as number) * COUNT_WIDTH;
    const o = n * COUNT_WIDTH;
    let any = false;
    for (let f = 0; f < COUNT_WIDTH; f++) {
      const v = (store[hiA + f] as number) + (store[hiB + f] as number) - ((store[loA + f] as number) + (store[loB + f] as number));
      counts[o + f] = v;
      if (v !== 0) {
        any = true;
        sumAbs += Math.abs(v);
      }
    }
    if (!any) continue;
    hourStarts.push((layout[j] as number) * HALF_HOUR_MS);
    n++;
  }
  if (sumAbs > EXACT_DOUBLE_LIMIT) return undefined;
  return { hourStarts, counts: counts.subarray(0, n * COUNT_WIDTH) };
}

function piecesFromBigints(p: Plan, values: bigint[], width: number): UsageColumns {
  const store = new Array<bigint>(p.storeRows * COUNT_WIDTH).fill(0n);
  const layout = pieceLayout(p, fillStore(p, values, width, store, Number));
  const hourStarts: number[] = [];
  const counts: bigint[] = [];
  const piece = new Array<bigint>(COUNT_WIDTH);
  for (let j = 0; j < layout.length; j += PIECE_STRIDE) {
    const hiA = (layout[j + 1] as number) * COUNT_WIDTH;
    const hiB = (layout[j + 2] as number) * COUNT_WIDTH;
    const loA = (layout[j + 3] as number) * COUNT_WIDTH;
    const loB = (layout[j + 4] as number) * COUNT_WIDTH;
    let any = false;
    for (let f = 0; f < COUNT_WIDTH; f++) {
      const v = (store[hiA + f] as bigint) + (store[hiB + f] as bigint) - ((store[loA + f] as bigint) + (store[loB + f] as bigint));
      piece[f] = v;
      if (v !== 0n) any = true;
    }
    if (!any) continue;
    hourStarts.push((layout[j] as number) * HALF_HOUR_MS);
    counts.push(...piece);
  }
  return { hourStarts, counts };
}

/**
 * Sums (across sources and models) over the runs of whole UTC half-hours inside `[startMs, endMs)`
 * that cross neither a UTC midnight nor any of `cutsMs` (instants, e.g. local day starts), in
 * columns with `hourStart` = the run's first half-hour. Empty runs are left out. With
 * `fields = 'billable'` only billable tokens are read (the other counts are 0).
 */
export async function listPieces(
  db: Db,
  userId: string,
  startMs: number,
  endMs: number,
  cutsMs: readonly number[],
  fields: 'all' | 'billable' = 'all',
): Promise<UsageColumns> {
  const p = plan(startMs, endMs, cutsMs);
  if (p === undefined) return { hourStarts: [], counts: new Float64Array(0) };
  const { triples } = p;
  const rows = await rawRows(
    db,
    fields === 'all' ? PREFIX_SQL : PREFIX_BILLABLE_SQL,
    db.dialect === 'sqlite'
      ? [userId, JSON.stringify(triples)]
      : [userId, `{${triples.map((t) => t[0]).join(',')}}`, `{${triples.map((t) => t[1]).join(',')}}`, `{${triples.map((t) => t[2]).join(',')}}`],
  );
  const packed = rows[0]?.[0];
  const text = typeof packed === 'string' ? packed : '';
  const width = fields === 'all' ? 2 + COUNT_WIDTH : 3;
  if (text === '') return { hourStarts: [], counts: new Float64Array(0) };
  const values = parseSmallIntegers(text);
  const fast = values === undefined ? undefined : piecesFromNumbers(p, values, width);
  return fast ?? piecesFromBigints(p, parseBigIntegers(text), width);
}
