/**
 * @fileoverview Reads behind the analytics endpoints. SQL sees only instants (epoch ms, UTC epoch
 * days, half-hour indexes): the zone never appears here. The service turns local ranges into
 * instant windows and cut points with the zone module and folds what these functions return.
 *
 * Three grains are read:
 * - raw rollup rows (one per user, UTC half-hour, source, model) for one day or for filtered views;
 * - `usage_daily` rows (one per UTC day, source and model, with the stored cost), summed per
 *   source and model in SQL, for totals, cost and model breakdown;
 * - "pieces" from `usage_day_prefix`: sums over runs of whole UTC half-hours that never cross a
 *   UTC midnight or a cut point the caller names (local day or month starts), returned as
 *   {@link UsageRow}s whose `hourStart` is the first half-hour of the run. Each piece lies inside
 *   one local day, so the domain folds assign it exactly as they would assign its buckets.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { UsageRow } from '../../domain/usage-row.js';
import type { PricedUsage } from '../../pricing/cost.js';
import type { Db } from '../connect.js';
import type { Database } from '../schema.js';

type Q = Kysely<Database>;
type Param = string | number | bigint | null | string[];

/**
 * The wide reads (a year of days) come back packed: one text column per group, entries
 * `a,b,c,…` joined by `;` (SQLite group_concat, PostgreSQL string_agg). Materialising thousands
 * of rows with seven 64-bit columns costs several µs a row in the drivers; one string a group and
 * a split is about three times cheaper. Statements are prepared once per connection.
 */
const sqliteStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

async function rawRows(db: Db, text: { name: string; sqlite: string; postgres: string }, params: Param[]): Promise<unknown[][]> {
  if (db.dialect === 'sqlite') {
    let cache = sqliteStatements.get(db.sqlite);
    if (cache === undefined) {
      cache = new Map();
      sqliteStatements.set(db.sqlite, cache);
    }
    let stmt = cache.get(text.sqlite);
    if (stmt === undefined) {
      stmt = db.sqlite.prepare(text.sqlite).raw(true);
      cache.set(text.sqlite, stmt);
    }
    // Named parameters (@p1, @p2, …) so one value may appear twice.
    return stmt.all(Object.fromEntries(params.map((v, i) => [`p${i + 1}`, v]))) as unknown[][];
  }
  // Named, so each pooled connection parses and plans the statement once.
  const res = await db.pool.query<unknown[]>({ name: text.name, text: text.postgres, values: params, rowMode: 'array' });
  return res.rows;
}

/** Calls `each` with the numbers of every packed entry (first field as a number, the others as bigint). */
function unpack(packed: unknown, each: (first: number, counts: bigint[]) => void): void {
  if (typeof packed !== 'string' || packed === '') return;
  for (const entry of packed.split(';')) {
    const parts = entry.split(',');
    const counts: bigint[] = new Array<bigint>(parts.length - 1);
    for (let i = 1; i < parts.length; i++) {
      const text = parts[i] as string;
      // Up to 15 digits is exact as a double, and BigInt(number) is cheaper than parsing text.
      counts[i - 1] = text.length <= 15 ? BigInt(Number(text)) : BigInt(text);
    }
    each(Number(parts[0]), counts);
  }
}

const PACKED_COUNTS = "|| ',' || input || ',' || cached_input || ',' || output || ',' || reasoning || ',' || total || ',' || billable";

/** counts = [input, cached_input, output, reasoning, total, billable] as unpacked. */
function countsRow(hourStart: number, source: string, model: string, c: bigint[]): UsageRow {
  return {
    hourStart,
    source,
    model,
    input: c[0] as bigint,
    cachedInput: c[1] as bigint,
    output: c[2] as bigint,
    reasoning: c[3] as bigint,
    total: c[4] as bigint,
    billable: c[5] as bigint,
  };
}

const ROLLUP_SQL = {
  name: 'tt_analytics_rollup',
  sqlite: `select hour_start, source, model, input, cached_input, output, reasoning, total, billable from usage_rollup
            where user_id = @p1 and hour_start >= @p2 and hour_start < @p3 and (@p4 is null or source = @p4)
              and (@p5 is null or model in (select value from json_each(@p5)))`,
  postgres: `select hour_start, source, model, input, cached_input, output, reasoning, total, billable from usage_rollup
              where user_id = $1 and hour_start >= $2 and hour_start < $3 and ($4::text is null or source = $4)
                and ($5::text[] is null or model = any($5::text[]))`,
};

/** Whole UTC days of a window per (source, raw model): summed counts, summed stored costs, first and last day. */
const DAY_MODEL_SQL = {
  name: 'tt_analytics_day_model_costs',
  sqlite: `select source, model, sum(input), sum(cached_input), sum(output), sum(reasoning), sum(total), sum(billable),
                  sum(cost_micros), min(day), max(day)
             from usage_daily
            where user_id = @p1 and day >= @p2 and day < @p3 and (@p4 is null or source = @p4) group by source, model`,
  postgres: `select source, model, sum(input), sum(cached_input), sum(output), sum(reasoning), sum(total), sum(billable),
                    sum(cost_micros), min(day), max(day)
               from usage_daily
              where user_id = $1 and day >= $2 and day < $3 and ($4::text is null or source = $4) group by source, model`,
};

/** The same reads packing only billable tokens (the heatmap's one figure): a third of the text to build and parse. */
const PREFIX_BILLABLE_SQL = {
  name: 'tt_analytics_prefix_billable',
  sqlite: `select p.k, group_concat(p.day || ',' || p.billable, ';')
             from json_each(@p2) j cross join usage_day_prefix p
               on p.user_id = @p1 and p.k = (j.value ->> 0) and p.day >= (j.value ->> 1) and p.day <= (j.value ->> 2)
            group by p.k`,
  postgres: `select p.k, string_agg(p.day || ',' || p.billable, ';')
               from unnest($2::bigint[], $3::bigint[], $4::bigint[]) as j(k, lo, hi)
               join usage_day_prefix p on p.user_id = $1 and p.k = j.k and p.day >= j.lo and p.day <= j.hi
              group by p.k`,
};

/** Prefix rows for (k, day range) triples; SQLite takes them as JSON `[[k, from, to], …]`, PostgreSQL as three arrays. */
const PREFIX_SQL = {
  name: 'tt_analytics_prefix',
  sqlite: `select p.k, group_concat(p.day ${PACKED_COUNTS}, ';')
             from json_each(@p2) j cross join usage_day_prefix p
               on p.user_id = @p1 and p.k = (j.value ->> 0) and p.day >= (j.value ->> 1) and p.day <= (j.value ->> 2)
            group by p.k`,
  postgres: `select p.k, string_agg(p.day ${PACKED_COUNTS}, ';')
               from unnest($2::bigint[], $3::bigint[], $4::bigint[]) as j(k, lo, hi)
               join usage_day_prefix p on p.user_id = $1 and p.k = j.k and p.day >= j.lo and p.day <= j.hi
              group by p.k`,
};

const DAY_MS = 86_400_000;
const HALF_HOUR_MS = 1_800_000;
const SLOTS_PER_DAY = 48;
/** Half-hours per block of the two-level prefix in usage_day_prefix (see the migration). */
const BLOCK = 8;

/** Row filters applied in SQL. `models` is the list of raw model names to keep (undefined = all). */
export interface RowFilter {
  readonly source?: string | undefined;
  readonly models?: readonly string[] | undefined;
}

interface CountColumns {
  input: bigint;
  cached_input: bigint;
  output: bigint;
  reasoning: bigint;
  total: bigint;
  billable: bigint;
}

/** First half-hour index whose bucket start is at or after `ms` (buckets start on UTC half-hours). */
function slotAtOrAfter(ms: number): number {
  return Math.ceil(ms / HALF_HOUR_MS);
}

function toRow(hourStart: number, source: string, model: string, c: CountColumns): UsageRow {
  return {
    hourStart,
    source,
    model,
    input: c.input,
    cachedInput: c.cached_input,
    output: c.output,
    reasoning: c.reasoning,
    total: c.total,
    billable: c.billable,
  };
}

/**
 * Raw rollup rows of a user whose bucket starts in `[startMs, endMs)`, optionally filtered.
 * The right grain for one day (hourly) and the fallback for filtered daily/monthly/heatmap views.
 */
export async function listRollupRows(db: Db, userId: string, startMs: number, endMs: number, filter: RowFilter = {}): Promise<UsageRow[]> {
  if (filter.models !== undefined && filter.models.length === 0) return [];
  const models = filter.models === undefined ? null : db.dialect === 'sqlite' ? JSON.stringify(filter.models) : [...filter.models];
  const rows = await rawRows(db, ROLLUP_SQL, [userId, BigInt(startMs), BigInt(endMs), filter.source ?? null, models]);
  return rows.map((r) => ({
    hourStart: Number(r[0]),
    source: r[1] as string,
    model: r[2] as string,
    input: BigInt(r[3] as bigint),
    cachedInput: BigInt(r[4] as bigint),
    output: BigInt(r[5] as bigint),
    reasoning: BigInt(r[6] as bigint),
    total: BigInt(r[7] as bigint),
    billable: BigInt(r[8] as bigint),
  }));
}

/** Usage of a window at (UTC day, source, model) grain, split the way its readers need it. */
export interface DayModelUsage {
  /** Summed counts per (source, raw model) (several rows may share a pair; `hourStart` is meaningless). */
  readonly totals: UsageRow[];
  /** Whole UTC days: the stored costs (`usage_daily.cost_micros`) summed per (source, raw model). */
  readonly priced: PricedUsage[];
  /** The raw rollup rows of the partial UTC days at either edge, still to be priced. */
  readonly edgeRows: UsageRow[];
}

/**
 * Usage of the buckets that start in `[startMs, endMs)`: whole UTC days come from `usage_daily`
 * (counts and stored costs summed in SQL, one row per source and model), the partial UTC days at
 * either edge from the rollup. The model filter is the caller's (in JS, by raw name or canonical id).
 */
export async function listDayModelUsage(db: Db, userId: string, startMs: number, endMs: number, source?: string): Promise<DayModelUsage> {
  const a = slotAtOrAfter(startMs) * HALF_HOUR_MS;
  const b = slotAtOrAfter(endMs) * HALF_HOUR_MS;
  if (b <= a) return { totals: [], priced: [], edgeRows: [] };
  const firstFull = Math.ceil(a / DAY_MS);
  const endFull = Math.floor(b / DAY_MS);
  if (firstFull >= endFull) {
    const rows = await listRollupRows(db, userId, a, b, { source });
    return { totals: rows, priced: [], edgeRows: rows };
  }
  const [days, head, tail] = await Promise.all([
    rawRows(db, DAY_MODEL_SQL, [userId, BigInt(firstFull), BigInt(endFull), source ?? null]),
    a < firstFull * DAY_MS ? listRollupRows(db, userId, a, firstFull * DAY_MS, { source }) : Promise.resolve([]),
    endFull * DAY_MS < b ? listRollupRows(db, userId, endFull * DAY_MS, b, { source }) : Promise.resolve([]),
  ]);
  const edgeRows: UsageRow[] = [...head, ...tail];
  const totals: UsageRow[] = [...edgeRows];
  const priced: PricedUsage[] = [];
  for (const [rowSource, rowModel, input, cached, output, reasoning, total, billable, micros, firstDay, lastDay] of days) {
    const src = rowSource as string;
    const model = rowModel as string;
    totals.push(countsRow(firstFull * DAY_MS, src, model, [input, cached, output, reasoning, total, billable].map((v) => BigInt(v as bigint))));
    priced.push({ source: src, model, firstDay: Number(firstDay), lastDay: Number(lastDay), micros: BigInt(micros as bigint) });
  }
  return { totals, priced, edgeRows };
}

/** Distinct raw model names a user has in the UTC days touching `[startMs, endMs)` (for resolving a `model` filter). */
export async function listModelsInWindow(db: Db, userId: string, startMs: number, endMs: number, source?: string): Promise<string[]> {
  let q = db.kysely
    .selectFrom('usage_daily')
    .select('model')
    .distinct()
    .where('user_id', '=', userId)
    .where('day', '>=', BigInt(Math.floor(startMs / DAY_MS)))
    .where('day', '<=', BigInt(Math.floor((endMs - 1) / DAY_MS)));
  if (source !== undefined) q = q.where('source', '=', source);
  const rows = await q.execute();
  return rows.map((r) => r.model);
}

/**
 * Sums (across sources and models) over the runs of whole UTC half-hours inside `[startMs, endMs)`
 * that cross neither a UTC midnight nor any of `cutsMs` (instants, e.g. local day starts), as
 * rows with `source`/`model` `''` and `hourStart` = the run's first half-hour. Empty runs are
 * left out. With `fields = 'billable'` only billable tokens are read (the others are 0). Two prefix rows per UTC day and cut phase are read, never the half-hours themselves.
 */
export async function listPieces(
  db: Db,
  userId: string,
  startMs: number,
  endMs: number,
  cutsMs: readonly number[],
  fields: 'all' | 'billable' = 'all',
): Promise<UsageRow[]> {
  const first = slotAtOrAfter(startMs);
  const last = slotAtOrAfter(endMs); // exclusive
  if (last <= first) return [];
  const firstDay = Math.floor(first / SLOTS_PER_DAY);
  const lastDay = Math.floor((last - 1) / SLOTS_PER_DAY);
  // Cut phases per UTC day (besides 0 and 48): the range edges and every cut inside the range.
  const phasesByDay = new Map<number, number[]>();
  const addCut = (slot: number): void => {
    if (slot < first || slot > last) return;
    const day = Math.floor(slot / SLOTS_PER_DAY);
    const k = slot - day * SLOTS_PER_DAY;
    if (k === 0) return;
    const list = phasesByDay.get(day);
    if (list === undefined) phasesByDay.set(day, [k]);
    else if (!list.includes(k)) list.push(k);
  };
  addCut(first);
  addCut(last);
  for (const c of cutsMs) addCut(slotAtOrAfter(c));
  // (k, first day, last day) triples: the whole day (k = 48) for every day, each cut phase only for its days.
  const triples: [number, number, number][] = [[SLOTS_PER_DAY, firstDay, lastDay]];
  const open = new Map<number, [number, number, number]>();
  for (const day of [...phasesByDay.keys()].sort((x, y) => x - y)) {
    const list = (phasesByDay.get(day) as number[]).sort((x, y) => x - y);
    for (const k of list) {
      const run = open.get(k);
      if (run !== undefined && run[2] === day - 1) run[2] = day;
      else {
        const fresh: [number, number, number] = [k, day, day];
        open.set(k, fresh);
        triples.push(fresh);
      }
    }
  }
  // Two-level prefix: P(d, k) = row(8·⌊k/8⌋) + row(k) when k is not a block boundary.
  for (const [k, lo, hi] of [...triples]) {
    if (k % BLOCK !== 0 && k > BLOCK) triples.push([k - (k % BLOCK), lo, hi]);
  }
  const rows = await rawRows(
    db,
    fields === 'all' ? PREFIX_SQL : PREFIX_BILLABLE_SQL,
    db.dialect === 'sqlite'
      ? [userId, JSON.stringify(triples)]
      : [userId, `{${triples.map((t) => t[0]).join(',')}}`, `{${triples.map((t) => t[1]).join(',')}}`, `{${triples.map((t) => t[2]).join(',')}}`],
  );
  /** day → (k → prefix sums); P(d, 0) = 0 and days without rows have no usage. */
  const prefix = new Map<number, Map<number, CountColumns>>();
  for (const [kValue, packed] of rows) {
    const k = Number(kValue);
    unpack(packed, (day, c) => {
      let m = prefix.get(day);
      if (m === undefined) {
        m = new Map();
        prefix.set(day, m);
      }
      m.set(
        k,
        c.length === 1
          ? { input: 0n, cached_input: 0n, output: 0n, reasoning: 0n, total: 0n, billable: c[0] as bigint }
          : { input: c[0] as bigint, cached_input: c[1] as bigint, output: c[2] as bigint, reasoning: c[3] as bigint, total: c[4] as bigint, billable: c[5] as bigint },
      );
    });
  }
  const zero: CountColumns = { input: 0n, cached_input: 0n, output: 0n, reasoning: 0n, total: 0n, billable: 0n };
  /** P(d, k) from the two-level rows of day `m`. */
  const prefixAt = (m: Map<number, CountColumns>, k: number): CountColumns => {
    if (k === 0) return zero;
    const own = m.get(k) ?? zero;
    if (k % BLOCK === 0 || k < BLOCK) return own;
    const base = m.get(k - (k % BLOCK)) ?? zero;
    return {
      input: base.input + own.input,
      cached_input: base.cached_input + own.cached_input,
      output: base.output + own.output,
      reasoning: base.reasoning + own.reasoning,
      total: base.total + own.total,
      billable: base.billable + own.billable,
    };
  };
  const out: UsageRow[] = [];
  const days = [...prefix.keys()].sort((x, y) => x - y);
  for (const day of days) {
    const m = prefix.get(day) as Map<number, CountColumns>;
    if (!m.has(SLOTS_PER_DAY)) continue;
    const phases = [0, ...(phasesByDay.get(day) ?? []), SLOTS_PER_DAY];
    for (let i = 0; i + 1 < phases.length; i++) {
      const k0 = phases[i] as number;
      const k1 = phases[i + 1] as number;
      const startSlot = day * SLOTS_PER_DAY + k0;
      if (startSlot < first || startSlot >= last) continue;
      const lo = prefixAt(m, k0);
      const hi = prefixAt(m, k1);
      const piece: CountColumns = {
        input: hi.input - lo.input,
        cached_input: hi.cached_input - lo.cached_input,
        output: hi.output - lo.output,
        reasoning: hi.reasoning - lo.reasoning,
        total: hi.total - lo.total,
        billable: hi.billable - lo.billable,
      };
      if (piece.total === 0n && piece.billable === 0n && piece.input === 0n && piece.output === 0n && piece.cached_input === 0n && piece.reasoning === 0n) {
        continue;
      }
      out.push(toRow(startSlot * HALF_HOUR_MS, '', '', piece));
    }
  }
  return out;
}

/** Latest sync (upload or ping) of any of the user's devices, epoch ms, or null. */
export async function lastSyncAt(db: Q, userId: string): Promise<number | null> {
  const row = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.max('last_sync_at').as('last'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const v = row?.last;
  return v === null || v === undefined ? null : Number(v);
}

/** One project's all-time totals. */
export interface ProjectTotals {
  readonly projectKey: string;
  readonly projectRef: string | null;
  readonly total: bigint;
  readonly billable: bigint;
}

/** All-time totals per project (optionally one source), billable descending, then total, then key; at most `limit`. */
export async function listProjectTotals(db: Q, userId: string, limit: number, source?: string): Promise<ProjectTotals[]> {
  let q = db
    .selectFrom('project_usage')
    .select((eb) => [
      'project_key',
      eb.fn.max('project_ref').as('project_ref'),
      eb.fn.sum<bigint>('total').as('total'),
      eb.fn.sum<bigint>('billable').as('billable'),
    ])
    .where('user_id', '=', userId)
    .where('project_key', '<>', '');
  if (source !== undefined) q = q.where('source', '=', source);
  const rows = await q
    .groupBy('project_key')
    .orderBy(sql`sum(billable)`, 'desc')
    .orderBy(sql`sum(total)`, 'desc')
    .orderBy('project_key')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ projectKey: r.project_key, projectRef: r.project_ref, total: BigInt(r.total), billable: BigInt(r.billable) }));
}

/** A user's sign-up time (epoch ms), or undefined when the user does not exist. */
export async function userCreatedAt(db: Q, userId: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('created_at').where('id', '=', userId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.created_at);
}

/** One stored device subscription, newest first. */
export interface SubscriptionRow {
  readonly deviceId: string;
  readonly tool: string | null;
  readonly provider: string | null;
  readonly product: string | null;
  readonly planType: string | null;
  readonly rateLimitTier: string | null;
  readonly details: string;
  readonly updatedAt: number;
}

/** The subscriptions reported by the user's devices (newest upload first). */
export async function listSubscriptions(db: Q, userId: string): Promise<SubscriptionRow[]> {
  const rows = await db
    .selectFrom('device_subscriptions')
    .select(['device_id', 'tool', 'provider', 'product', 'plan_type', 'rate_limit_tier', 'details', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('device_id')
    .orderBy('position')
    .execute();
  return rows.map((r) => ({
    deviceId: r.device_id,
    tool: r.tool,
    provider: r.provider,
    product: r.product,
    planType: r.plan_type,
    rateLimitTier: r.rate_limit_tier,
    details: r.details,
    updatedAt: Number(r.updated_at),
  }));
}

/** Counts and latest activity of the user's non-revoked devices. */
export interface InstallSummary {
  readonly activeDevices: number;
  readonly lastSeenAt: number | null;
  readonly lastSyncAt: number | null;
}

export async function installSummary(db: Q, userId: string): Promise<InstallSummary> {
  const row = await db
    .selectFrom('devices')
    .select((eb) => [eb.fn.countAll<bigint>().as('n'), eb.fn.max('last_seen_at').as('seen'), eb.fn.max('last_sync_at').as('sync')])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  const num = (v: bigint | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));
  return { activeDevices: Number(row?.n ?? 0n), lastSeenAt: num(row?.seen), lastSyncAt: num(row?.sync) };
}
