/**
 * @fileoverview A team's usage per local day (docs/teams.md, "Speed"): sums per (local day, UTC
 * day, source, raw model) over a stretch of constant UTC offset, for pricing per piece.
 *
 * A whole UTC day falls into two local days, split at the one instant of the day where the zone's
 * midnight falls (the same instant every day of the stretch, the offset being constant). So its
 * two pieces are the day's `usage_daily` sums and the half-hours on the smaller side of the cut,
 * the other piece being the day less that side: a day in New York reads its 4 or 5 hours before
 * the cut from the half-hours instead of all 24, and a day in UTC none. The partial UTC days at
 * the stretch's ends are read from the half-hours. Sums are grouped in SQL (the cost is the sort
 * of the rows grouped, so the fewer the better); both tables are written in the same transactions
 * and read in one statement, so a day and its side are one snapshot and the difference is exact.
 *
 * The whole team's come from the team-side model (`team_usage_daily`, `team_usage_rollup`,
 * migration 0029): its members' rows summed per team, so what is read does not grow with the
 * members. One member's (a member filter) come from their own `usage_daily` and `usage_rollup`.
 * On SQLite a read of the team-side model waits for a write transaction open on the app's
 * connection (team-usage-model.ts, `readTeamModel`).
 */
import { BLOCK_DAYS, DAY_MS, SPAN_MS } from '../../domain/calendar.js';
import { addCounts, isZeroCounts, type TokenCounts } from '../../domain/token-counts.js';
import type { Db } from '../connect.js';
import { rawRows } from '../raw-rows.js';
import { countsAt } from '../token-columns.js';
import { readTeamModel } from './team-usage-model.js';

const SUMS = 'sum(r.input), sum(r.cached_input), sum(r.output), sum(r.reasoning), sum(r.total), sum(r.billable)';
const MEMBERS = {
  sqlite:
    'team_members m join {T} {A} on {A}.user_id = m.user_id where m.team_id = @p1 and (@p2 is null or m.user_id = @p2)',
  postgres:
    'team_members m join {T} {A} on {A}.user_id = m.user_id where m.team_id = $1 and ($2::text is null or m.user_id = $2)',
};

const statement = (
  make: (d: 'sqlite' | 'postgres', from: (table: string, alias?: string) => string, p: (n: number) => string) => string,
) => ({
  sqlite: make(
    'sqlite',
    (t, alias = 'r') => MEMBERS.sqlite.replace('{T}', t).replaceAll('{A}', alias),
    (n) => `@p${n}`,
  ),
  postgres: make(
    'postgres',
    (t, alias = 'r') => MEMBERS.postgres.replace('{T}', t).replaceAll('{A}', alias),
    (n) => `$${n}`,
  ),
});

/**
 * Kind 0: local-day pieces of the half-hours in [@p3, @p4) and [@p5, @p6) (offset @p7). Kind 1:
 * whole UTC days [@p8, @p9) from `usage_daily`; on SQLite by its key, per member and each (source,
 * model) of the member's `usage_blocks` over those days (blocks @p14 to @p15; every daily row is in
 * its block), which reads the days' rows in place where `usage_daily_user_day` would look each one
 * up in the table (a third less CPU for a year; PostgreSQL's bitmap scan of that index does better
 * than the key's). Kind 2: per UTC day, its half-hours in
 * [@p10, @p11) whose time of day is in [@p12, @p13) — one side of the cut.
 */
const PIECES_SQL = statement((d, from, p) => {
  const half = (lo: number, hi: number) =>
    `select 0, (r.hour_start + ${p(7)}) / ${DAY_MS}, r.hour_start / ${DAY_MS}, r.source, r.model, ${SUMS}
       from ${from('usage_rollup')} and r.hour_start >= ${p(lo)} and r.hour_start < ${p(hi)}
      group by (r.hour_start + ${p(7)}) / ${DAY_MS}, r.hour_start / ${DAY_MS}, r.source, r.model`;
  return `${half(3, 4)}
  union all
  ${half(5, 6)}
  union all
  select 1, r.day, r.day, r.source, r.model, ${SUMS}
    from ${
      d === 'postgres'
        ? from('usage_daily')
        : `(select distinct b.user_id, b.source, b.model from ${from('usage_blocks', 'b')}
               and b.block >= ${p(14)} and b.block <= ${p(15)}) c
           join usage_daily r on r.user_id = c.user_id and r.source = c.source and r.model = c.model where true`
    } and r.day >= ${p(8)} and r.day < ${p(9)}
   group by r.day, r.source, r.model
  union all
  select 2, r.hour_start / ${DAY_MS}, r.hour_start / ${DAY_MS}, r.source, r.model, ${SUMS}
    from ${from('usage_rollup')} and r.hour_start >= ${p(10)} and r.hour_start < ${p(11)}
     and r.hour_start % ${DAY_MS} >= ${p(12)} and r.hour_start % ${DAY_MS} < ${p(13)}
   group by r.hour_start / ${DAY_MS}, r.source, r.model`;
});

/**
 * The same, planned by PostgreSQL for each call's values: over a long stretch a generic plan (which
 * guesses a few rows: sort, then group, spilling to disk) costs its backend about 300 ms for a year
 * here where a plan for the values (hash aggregation) costs about 190; over a month the generic
 * plan's per-member index reads do a little better than what the values' plan may pick.
 */
const PIECES_PLANNED_SQL = { ...PIECES_SQL, planEachCall: true };
const LONG_STRETCH_MS = 90 * DAY_MS;

/**
 * The same for the whole team, from the team-side read model (migrations 0029, 0030): the members'
 * sums already summed per team, so a year in New York reads about 730 daily rows and the days'
 * smaller sides instead of every member's. Parameters as above less the member (@p2) and the
 * blocks: @p1 the team, then @p2 to @p10 for @p3 to @p11; the side is @p11 to @p14 (as in
 * {@link teamSide}). A daily row is one piece's (day, source, model) already: nothing to group.
 *
 * The cut side is read a day at a time, by the tables' keys: its whole 4-hour spans from
 * `team_usage_spans` (@p11 to @p12 into the day) and its other half-hours from `team_usage_rollup`
 * (@p13 to @p14), at most seven (the side's reads of half-hours were most of a year's call, 10 of
 * 12 ms a stretch in New York). Filtering the stretch's every half-hour by its time of day instead
 * read five times the rows, and PostgreSQL's generic plan for that filter walked the key for all of
 * them (28 against 9 ms of the backend for a year in New York).
 */
const TEAM_PIECES_SQL = (() => {
  const at = (d: 'sqlite' | 'postgres') => (n: number) =>
    d === 'sqlite' ? `@p${n === 1 ? 1 : n - 1}` : `$${n === 1 ? 1 : n - 1}`;
  const make = (d: 'sqlite' | 'postgres') => {
    const p = at(d);
    const half = (lo: number, hi: number) =>
      `select 0, (r.hour_start + ${p(7)}) / ${DAY_MS}, r.hour_start / ${DAY_MS}, r.source, r.model, ${SUMS}
         from team_usage_rollup r where r.team_id = ${p(1)} and r.hour_start >= ${p(lo)} and r.hour_start < ${p(hi)}
        group by (r.hour_start + ${p(7)}) / ${DAY_MS}, r.hour_start / ${DAY_MS}, r.source, r.model`;
    const cols = 'x.source, x.model, x.input, x.cached_input, x.output, x.reasoning, x.total, x.billable';
    // the days' sides: their whole spans and their other half-hours (PostgreSQL: of the day `g.day`)
    const join = (table: string, time: string, lo: number, hi: number) =>
      `${d === 'sqlite' ? `days g join ${table} x on` : `${table} x where`} x.team_id = ${p(1)}
          and x.${time} >= g.day * ${DAY_MS} + ${p(lo)} and x.${time} < g.day * ${DAY_MS} + ${p(hi)}`;
    const side = `select g.day, ${cols} from ${join('team_usage_spans', 'span_start', 12, 13)}
        union all
        select g.day, ${cols} from ${join('team_usage_rollup', 'hour_start', 14, 15)}`;
    // SQLite's days of the cut side, one row each (PostgreSQL's are generate_series)
    const days =
      d === 'sqlite'
        ? `with recursive days(day) as (
             select ${p(10)} / ${DAY_MS} where ${p(10)} < ${p(11)}
             union all select day + 1 from days where (day + 1) * ${DAY_MS} < ${p(11)})
           `
        : '';
    return `${days}${half(3, 4)}
    union all
    ${half(5, 6)}
    union all
    select 1, r.day, r.day, r.source, r.model, r.input, r.cached_input, r.output, r.reasoning, r.total, r.billable
      from team_usage_daily r where r.team_id = ${p(1)} and r.day >= ${p(8)} and r.day < ${p(9)}
    union all
    select 2, r.day, r.day, r.source, r.model, ${SUMS}
      from ${
        d === 'postgres'
          ? `generate_series(${p(10)}::bigint / ${DAY_MS}, ${p(11)}::bigint / ${DAY_MS} - 1) g(day)
             cross join lateral (${side}) r`
          : `(${side}) r`
      }
     group by r.day, r.source, r.model`;
  };
  return { sqlite: make('sqlite'), postgres: make('postgres') };
})();

/**
 * The same, planned by PostgreSQL for each call's values over a long stretch: a year's stretch in
 * New York took 8.5–9.3 ms a call, planning included, against 10.1–10.5 with the generic plan.
 */
const TEAM_PIECES_PLANNED_SQL = { ...TEAM_PIECES_SQL, planEachCall: true };

/**
 * The times of day of a day's side [lo, hi) (lo 0 or hi a whole day) read from the team's 4-hour
 * spans, and of the half-hours read besides (empty ranges: equal ends): [span from, span to,
 * half-hours from, half-hours to].
 */
function teamSide(lo: number, hi: number): [number, number, number, number] {
  const from = Math.ceil(lo / SPAN_MS) * SPAN_MS;
  const to = Math.floor(hi / SPAN_MS) * SPAN_MS;
  if (to <= from) return [0, 0, lo, hi];
  return lo < from ? [from, to, lo, from] : [from, to, to, hi];
}

/** Team sums of one (local epoch day, UTC epoch day, source, raw model). */
export interface LocalDayPiece {
  readonly localDay: number;
  readonly utcDay: number;
  readonly source: string;
  readonly model: string;
  readonly counts: TokenCounts;
}

/**
 * The team's sums per local day over `[startMs, endMs)`, where the zone's offset is `offsetMs`
 * throughout: of one member (`userId`) from their own rows, of the whole team (null) from the
 * team-side read model.
 */
export async function listTeamLocalDayPieces(
  db: Db,
  teamId: string,
  userId: string | null,
  startMs: number,
  endMs: number,
  offsetMs: number,
): Promise<LocalDayPiece[]> {
  // Whole UTC days inside the stretch (none before 1970, where SQL's division and remainder truncate).
  let firstFull = Math.ceil(startMs / DAY_MS);
  let endFull = Math.floor(endMs / DAY_MS);
  if (endFull <= firstFull || startMs < 0) firstFull = endFull = 0;
  // The half-hours [startMs, a) and [b, endMs) are the partial days; all of them when no day is whole.
  const a = endFull > firstFull ? firstFull * DAY_MS : endMs;
  const b = endFull > firstFull ? endFull * DAY_MS : endMs;
  // The time of day of the local midnight (0: days do not split), the local day of the half-hours before it.
  const cut = ((-offsetMs % DAY_MS) + DAY_MS) % DAY_MS;
  const early = (day: number) => day + Math.floor(offsetMs / DAY_MS);
  const sideEarly = cut <= DAY_MS / 2;
  const [lo, hi] = cut === 0 ? [0, 0] : sideEarly ? [0, cut] : [cut, DAY_MS];
  const bounds = [
    BigInt(startMs),
    BigInt(a),
    BigInt(b),
    BigInt(endMs),
    BigInt(offsetMs),
    BigInt(firstFull),
    BigInt(endFull),
    BigInt(a),
    BigInt(cut === 0 ? a : b),
    BigInt(lo),
    BigInt(hi),
  ];
  const team = () =>
    rawRows(db, endMs - startMs > LONG_STRETCH_MS ? TEAM_PIECES_PLANNED_SQL : TEAM_PIECES_SQL, [
      teamId,
      ...bounds.slice(0, 9),
      ...teamSide(lo, hi).map(BigInt),
    ]);
  const rows =
    userId === null
      ? await readTeamModel(db, team)
      : await rawRows(db, endMs - startMs > LONG_STRETCH_MS ? PIECES_PLANNED_SQL : PIECES_SQL, [
          teamId,
          userId,
          ...bounds,
          ...(db.dialect === 'sqlite'
            ? [BigInt(Math.floor(firstFull / BLOCK_DAYS)), BigInt(Math.floor((endFull - 1) / BLOCK_DAYS))]
            : []),
        ]);
  const pieces: LocalDayPiece[] = [];
  const whole = new Map<string, { utcDay: number; source: string; model: string; counts: TokenCounts }>();
  const sides: LocalDayPiece[] = [];
  for (const r of rows) {
    const kind = Number(r[0]);
    const utcDay = Number(r[2]);
    const source = r[3] as string;
    const model = r[4] as string;
    const counts = countsAt(r, 5);
    if (kind === 0) pieces.push({ localDay: Number(r[1]), utcDay, source, model, counts });
    else if (kind === 1) whole.set(`${utcDay}\u0000${source}\u0000${model}`, { utcDay, source, model, counts });
    else sides.push({ localDay: early(utcDay) + (sideEarly ? 0 : 1), utcDay, source, model, counts });
  }
  for (const side of sides) {
    pieces.push(side);
    const day = whole.get(`${side.utcDay}\u0000${side.source}\u0000${side.model}`);
    if (day !== undefined) addCounts(day.counts, side.counts, -1n);
  }
  // What is left of each whole day is its other piece (all of it when the day does not split).
  const rest = cut === 0 ? 0 : sideEarly ? 1 : 0;
  for (const day of whole.values())
    if (!isZeroCounts(day.counts)) pieces.push({ ...day, localDay: early(day.utcDay) + rest });
  return pieces;
}
