/**
 * @fileoverview Reads behind a team's usage and leaderboard (docs/teams.md): the same read models
 * as a user's analytics (db/queries/analytics.ts), over the team's members (joined through
 * `team_members`, optionally one member). SQL sees only instants and UTC epoch days.
 */
import type { Queryable } from '../connect.js';
import { sql } from 'kysely';
import { BLOCK_DAYS, DAY_MS, HALF_HOUR_MS } from '../../domain/calendar.js';
import type { Period, UserTotals } from '../../domain/leaderboard-ranking.js';
import type { TokenCounts } from '../../domain/token-counts.js';
import type { UsageRow } from '../../domain/usage-row.js';
import type { Db } from '../connect.js';
import { rawRows } from '../raw-rows.js';

import { countsAt } from '../token-columns.js';
import { COSTS_FINGERPRINT_SQL, readCostsFingerprint } from './daily-costs.js';
import { userTotalsOf } from './leaderboard.js';
import { readTeamModel } from './team-usage-model.js';

const SUMS = 'sum(r.input), sum(r.cached_input), sum(r.output), sum(r.reasoning), sum(r.total), sum(r.billable)';
/** SQLite: the rows of `table` of the team's members (@p1), or of one (@p2); PostgreSQL reads each member's laterally. */
const members = (table: string) =>
  `team_members m join ${table} r on r.user_id = m.user_id where m.team_id = @p1 and (@p2 is null or m.user_id = @p2)`;
const p = (dialect: 'sqlite' | 'postgres', n: number) => (dialect === 'sqlite' ? `@p${n}` : `$${n}`);

const statement = (make: (d: 'sqlite' | 'postgres') => string) => ({
  sqlite: make('sqlite'),
  postgres: make('postgres'),
});

/**
 * Whole UTC days per (member, source, raw model): counts, stored costs and the costs' data. The
 * whole blocks of the window from `usage_blocks` (@p5 to @p6), its days before and after them from
 * `usage_daily` by (user, day) (@p3 to @p7, @p8 to @p4): a year reads 23 block rows and at most 30
 * day rows per (member, source, model) instead of every day. Both tables are written in the same
 * transactions (ingest, repricing's swap), so one statement sees them in step.
 *
 * On PostgreSQL each member's rows are read and summed on their own (a lateral read per member, by
 * the keys): joined to the members, the days around the blocks were read by scanning all of
 * `usage_daily` whenever the team holds most users, and grouping the 13,600 rows of a year by
 * (member, source, model) at once cost more than the reads (28 against 16 ms a call, alternated,
 * for 200 members here). Each member's plan is the same whatever the team's size, so the generic
 * plan serves.
 */
const DAY_MODEL_SQL = {
  sqlite: (() => {
    const cols = `r.user_id, r.source, r.model, r.input, r.cached_input, r.output, r.reasoning, r.total, r.billable, r.cost_micros`;
    return `select r.user_id, r.source, r.model, ${SUMS}, sum(r.cost_micros), (${COSTS_FINGERPRINT_SQL})
            from (select ${cols} from ${members('usage_blocks')} and r.block >= @p5 and r.block < @p6
                  union all
                  select ${cols} from ${members('usage_daily')} and r.day >= @p3 and r.day < @p7
                  union all
                  select ${cols} from ${members('usage_daily')} and r.day >= @p8 and r.day < @p4) r
           group by r.user_id, r.source, r.model`;
  })(),
  postgres: (() => {
    const cols = `x.source, x.model, x.input, x.cached_input, x.output, x.reasoning, x.total, x.billable, x.cost_micros`;
    return `select m.user_id, r.source, r.model, r.input, r.cached_input, r.output, r.reasoning, r.total, r.billable,
                   r.cost_micros, (${COSTS_FINGERPRINT_SQL})
            from team_members m cross join lateral (
                   select r.source, r.model, ${SUMS}, sum(r.cost_micros)
                     from (select ${cols} from usage_blocks x where x.user_id = m.user_id and x.block >= $5 and x.block < $6
                           union all
                           select ${cols} from usage_daily x where x.user_id = m.user_id and x.day >= $3 and x.day < $7
                           union all
                           select ${cols} from usage_daily x where x.user_id = m.user_id and x.day >= $8 and x.day < $4) r
                    group by r.source, r.model) r (source, model, input, cached_input, output, reasoning, total, billable, cost_micros)
           where m.team_id = $1 and ($2::text is null or m.user_id = $2)`;
  })(),
};
/**
 * The same for the whole team from the team-side model (migrations 0029, 0030): whole UTC days
 * [@p2, @p3) per (source, raw model), the members' counts and stored costs already summed per team
 * row, so a year reads the team's few rows a day (about 730 here) instead of every member's blocks
 * and days (13,600 for 200 members).
 */
const TEAM_DAY_MODEL_SQL = statement(
  (d) => `select '', r.source, r.model, ${SUMS}, sum(r.cost_micros), (${COSTS_FINGERPRINT_SQL})
            from team_usage_daily r where r.team_id = ${p(d, 1)} and r.day >= ${p(d, 2)} and r.day < ${p(d, 3)}
           group by r.source, r.model`,
);
/**
 * The half-hours in [@p3, @p4) and in [@p5, @p6), a window's two partial edges, in one statement,
 * summed per (member, UTC day, source, raw model): what pricing sums them by (pricing/cost.ts), so
 * a year in New York sends 800 rows here instead of 3,200. On PostgreSQL each member's are read and
 * summed on their own, as {@link DAY_MODEL_SQL}'s (8.0 against 9.6 ms a call, alternated).
 */
const ROLLUP_SQL = {
  sqlite: (() => {
    const edge = (lo: number, hi: number) =>
      `select r.user_id, r.hour_start / ${DAY_MS}, r.source, r.model, ${SUMS}
         from ${members('usage_rollup')} and r.hour_start >= @p${lo} and r.hour_start < @p${hi}
        group by r.user_id, r.hour_start / ${DAY_MS}, r.source, r.model`;
    return `${edge(3, 4)}\n union all\n ${edge(5, 6)}`;
  })(),
  postgres: `select m.user_id, r.*
       from team_members m cross join lateral (
              select r.hour_start / ${DAY_MS}, r.source, r.model, ${SUMS}
                from usage_rollup r
               where r.user_id = m.user_id
                 and (r.hour_start >= $3 and r.hour_start < $4 or r.hour_start >= $5 and r.hour_start < $6)
               group by r.hour_start / ${DAY_MS}, r.source, r.model) r
      where m.team_id = $1 and ($2::text is null or m.user_id = $2)`,
};
/** A member's usage of whole UTC days, per source and raw model, with its stored cost. */
export interface MemberPriced {
  readonly userId: string;
  readonly source: string;
  readonly model: string;
  readonly counts: TokenCounts;
  readonly micros: bigint;
}

export interface TeamWindowUsage {
  readonly priced: MemberPriced[];
  /** The partial UTC days at either edge per member, still to be priced: a row a day (`hourStart` its start). */
  readonly edges: (UsageRow & { readonly userId: string })[];
  readonly pricedBy: string | null;
}

const slotAtOrAfter = (ms: number): number => Math.ceil(ms / HALF_HOUR_MS) * HALF_HOUR_MS;

/** The members' half-hours in [a, b) and [c, d) (an empty range: c = d), a row per member and UTC day (its start). */
async function edgeRows(db: Db, teamId: string, userId: string | null, a: number, b: number, c = b, d = b) {
  const rows = await rawRows(db, ROLLUP_SQL, [teamId, userId, BigInt(a), BigInt(b), BigInt(c), BigInt(d)]);
  return rows.map((r) => ({
    userId: r[0] as string,
    hourStart: Number(r[1]) * DAY_MS,
    source: r[2] as string,
    model: r[3] as string,
    ...countsAt(r, 4),
  }));
}

/**
 * The team's (or one member's) usage of the buckets starting in `[startMs, endMs)`, as analytics'
 * listDayModelUsage. The whole team's whole days come per member when `perMember`, else from the
 * team-side model (their `userId` empty); the partial days at the edges are always per member (each
 * member's priced on their own, as the member's own answer prices them).
 */
export async function listTeamWindowUsage(
  db: Db,
  teamId: string,
  userId: string | null,
  startMs: number,
  endMs: number,
  perMember = true,
): Promise<TeamWindowUsage> {
  const a = slotAtOrAfter(startMs);
  const b = slotAtOrAfter(endMs);
  if (b <= a) return { priced: [], edges: [], pricedBy: await readCostsFingerprint(db) };
  const firstFull = Math.ceil(a / DAY_MS);
  const endFull = Math.floor(b / DAY_MS);
  if (firstFull >= endFull) {
    const [edges, pricedBy] = await Promise.all([edgeRows(db, teamId, userId, a, b), readCostsFingerprint(db)]);
    return { priced: [], edges, pricedBy };
  }
  // the two edges in one statement: beside the days' read, one more backend rather than two
  const [days, edges] = await Promise.all([
    userId === null && !perMember
      ? readTeamModel(db, () => rawRows(db, TEAM_DAY_MODEL_SQL, [teamId, BigInt(firstFull), BigInt(endFull)]))
      : memberDays(db, teamId, userId, firstFull, endFull),
    a < firstFull * DAY_MS || endFull * DAY_MS < b
      ? edgeRows(db, teamId, userId, a, firstFull * DAY_MS, endFull * DAY_MS, b)
      : Promise.resolve([]),
  ]);
  let pricedBy: string | null = null;
  const priced = days.map((r): MemberPriced => {
    pricedBy = (r[10] as string | null) ?? null;
    return {
      userId: r[0] as string,
      source: r[1] as string,
      model: r[2] as string,
      counts: countsAt(r, 3),
      micros: BigInt(r[9] as bigint),
    };
  });
  return { priced, edges, pricedBy: days.length > 0 ? pricedBy : await readCostsFingerprint(db) };
}

/** The members' (or one member's) whole UTC days [firstFull, endFull): whole blocks, the days around them. */
function memberDays(db: Db, teamId: string, userId: string | null, firstFull: number, endFull: number) {
  let blockFrom = Math.ceil(firstFull / BLOCK_DAYS);
  let blockTo = Math.floor(endFull / BLOCK_DAYS);
  if (blockTo <= blockFrom) blockFrom = blockTo = Math.ceil(endFull / BLOCK_DAYS);
  const daysUntil = Math.min(endFull, blockFrom * BLOCK_DAYS);
  const daysFrom = Math.max(daysUntil, blockTo * BLOCK_DAYS);
  return rawRows(db, DAY_MODEL_SQL, [
    teamId,
    userId,
    BigInt(firstFull),
    BigInt(endFull),
    BigInt(blockFrom),
    BigInt(blockTo),
    BigInt(daysUntil),
    BigInt(daysFrom),
  ]);
}

export interface ProjectSums {
  readonly projectKey: string;
  readonly projectRef: string | null;
  readonly counts: TokenCounts;
}

/** All-time sums per project of the team's members (or one), billable descending; at most `limit`. */
export async function listTeamProjects(
  db: Queryable,
  teamId: string,
  userId: string | null,
  limit: number,
): Promise<ProjectSums[]> {
  let q = db
    .selectFrom('team_members as m')
    .innerJoin('project_usage as r', 'r.user_id', 'm.user_id')
    .select((eb) => [
      'r.project_key',
      eb.fn.max('r.project_ref').as('project_ref'),
      eb.fn.sum<bigint>('r.input').as('input'),
      eb.fn.sum<bigint>('r.cached_input').as('cached_input'),
      eb.fn.sum<bigint>('r.output').as('output'),
      eb.fn.sum<bigint>('r.reasoning').as('reasoning'),
      eb.fn.sum<bigint>('r.total').as('total'),
      eb.fn.sum<bigint>('r.billable').as('billable'),
    ])
    .where('m.team_id', '=', teamId)
    .where('r.project_key', '<>', '');
  if (userId !== null) q = q.where('m.user_id', '=', userId);
  const rows = await q
    .groupBy('r.project_key')
    .orderBy(sql`sum(r.billable)`, 'desc')
    .orderBy(sql`sum(r.total)`, 'desc')
    .orderBy('r.project_key')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    projectKey: r.project_key,
    projectRef: r.project_ref,
    counts: {
      input: BigInt(r.input),
      cached: BigInt(r.cached_input),
      output: BigInt(r.output),
      reasoning: BigInt(r.reasoning),
      total: BigInt(r.total),
      billable: BigInt(r.billable),
    },
  }));
}

/** Billable tokens and stored costs per member and model family in a leaderboard period (the aggregates the ingest writers keep). */
export async function listTeamFamilyTotals(
  db: Queryable,
  teamId: string,
  period: Period,
  key: { week: number; month: number },
): Promise<UserTotals[]> {
  const members = db.selectFrom('team_members as m').where('m.team_id', '=', teamId);
  const cols = ['f.user_id', 'f.gpt', 'f.claude', 'f.other', 'f.gpt_cost', 'f.claude_cost', 'f.other_cost'] as const;
  const rows =
    period === 'week'
      ? await members
          .innerJoin('leaderboard_user_weeks as f', 'f.user_id', 'm.user_id')
          .select(cols)
          .where('f.week', '=', BigInt(key.week))
          .execute()
      : period === 'month'
        ? await members
            .innerJoin('leaderboard_user_months as f', 'f.user_id', 'm.user_id')
            .select(cols)
            .where('f.month', '=', BigInt(key.month))
            .execute()
        : await members.innerJoin('leaderboard_user_totals as f', 'f.user_id', 'm.user_id').select(cols).execute();
  return rows.map(userTotalsOf);
}
