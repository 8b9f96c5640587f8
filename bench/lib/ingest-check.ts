/**
 * @fileoverview bench:ingest's check after a run: every accepted upload stored (the upload events'
 * count), and every read model's per-user sums equal to the raw buckets', read in one snapshot from
 * the measured server's database (either engine; a build from before the packed tables too, for
 * `BENCH_SERVER` runs). The team-side tables (migration 0029), when the build has them, against
 * the sums of their teams' current members' rows (`BENCH_TEAMS`).
 */
import path from 'node:path';
import pg from 'pg';
import { dayTotalsOf } from '../../src/domain/day-slots.js';
import { unpackDayBuckets } from '../../src/domain/device-day-buckets.js';

export interface Check {
  events: number;
  bucketsInEvents: number;
  /** Read models whose per-user sums differ from the raw buckets' (empty: all equal). */
  differing: string[];
}

type UserSums = { user_id: string; t: unknown; b: unknown }[];

/** The name the raw buckets' sums go by among the results: what every read model is compared with. */
const RAW = 'raw buckets';

/**
 * Per-user sums of every read model, each of which must equal the raw buckets' sums: (user, total,
 * billable) rows, ordered by user. The leaderboard tables hold billable tokens only.
 */
const SUMS: Record<string, string> = {
  usage_rollup: 'select user_id, sum(total) t, sum(billable) b from usage_rollup group by user_id',
  usage_daily: 'select user_id, sum(total) t, sum(billable) b from usage_daily group by user_id',
  leaderboard_user_weeks:
    'select user_id, null t, sum(gpt + claude + other) b from leaderboard_user_weeks group by user_id',
  leaderboard_user_months:
    'select user_id, null t, sum(gpt + claude + other) b from leaderboard_user_months group by user_id',
  leaderboard_user_totals:
    'select user_id, null t, sum(gpt + claude + other) b from leaderboard_user_totals group by user_id',
};

/** The 16-day sums (migration 0027), checked when the measured build has them (BENCH_SERVER). */
const BLOCKS = 'select user_id, sum(total) t, sum(billable) b from usage_blocks group by user_id';

/**
 * Per team: the team-side tables' sums, and their definition from the members' rows (compared
 * with each other, keyed by team in the `user_id` column), for each table the measured build has.
 */
const TEAM_SUMS: Record<string, [string, string]> = {
  team_usage_rollup: [
    'select team_id user_id, sum(total) t, sum(billable) b from team_usage_rollup group by team_id',
    'select m.team_id user_id, sum(r.total) t, sum(r.billable) b from team_members m join usage_rollup r on r.user_id = m.user_id group by m.team_id',
  ],
  team_usage_spans: [
    'select team_id user_id, sum(total) t, sum(billable) b from team_usage_spans group by team_id',
    'select m.team_id user_id, sum(r.total) t, sum(r.billable) b from team_members m join usage_rollup r on r.user_id = m.user_id group by m.team_id',
  ],
  team_usage_daily: [
    'select team_id user_id, sum(total) t, sum(billable) b from team_usage_daily group by team_id',
    'select m.team_id user_id, sum(r.total) t, sum(r.billable) b from team_members m join usage_daily r on r.user_id = m.user_id group by m.team_id',
  ],
};

/** The team-side tables that differ from their members' sums. */
function compareTeams(results: Record<string, [UserSums, UserSums]>): string[] {
  const key = (rows: UserSums) =>
    JSON.stringify(
      rows.filter((r) => String(r.t) !== '0' || String(r.b) !== '0').map((r) => [r.user_id, String(r.t), String(r.b)]),
    );
  return Object.entries(results)
    .filter(([, [stored, members]]) => key(stored) !== key(members))
    .map(([name]) => name);
}

/** The packed days' sums per user (summed here: SQL does not read the packed text). */
const DAYS = 'select user_id, counts from usage_days order by user_id';

/** The raw buckets, packed by device and UTC day, with their device's user (summed here, as DAYS). */
const DEVICE_DAYS =
  'select d.user_id, b.day, b.buckets from usage_device_days b join devices d on d.num = b.device_num order by d.user_id';

/** The raw buckets' sums per user in a build from before they were packed by day (BENCH_SERVER). */
const BUCKET_ROWS =
  'select d.user_id, sum(b.total) t, sum(b.billable) b from usage_buckets b join devices d on d.num = b.device_num group by d.user_id';

function sumDeviceDays(rows: readonly { user_id: string; day: unknown; buckets: string }[]): UserSums {
  const byUser = new Map<string, { t: bigint; b: bigint }>();
  for (const r of rows) {
    const user = byUser.get(r.user_id) ?? { t: 0n, b: 0n };
    for (const bucket of unpackDayBuckets(Number(r.day), r.buckets)) {
      user.t += bucket.total;
      user.b += bucket.billable;
    }
    byUser.set(r.user_id, user);
  }
  return [...byUser].map(([user_id, s]) => ({ user_id, t: s.t, b: s.b }));
}

function sumDays(rows: readonly { user_id: string; counts: string }[]): UserSums {
  const byUser = new Map<string, { t: bigint; b: bigint }>();
  for (const r of rows) {
    const sums = dayTotalsOf(r.counts);
    const user = byUser.get(r.user_id) ?? { t: 0n, b: 0n };
    byUser.set(r.user_id, { t: user.t + sums.total, b: user.b + sums.billable });
  }
  return [...byUser].map(([user_id, s]) => ({ user_id, t: s.t, b: s.b }));
}

function compareSums(results: Record<string, UserSums>): string[] {
  const key = (rows: UserSums | undefined, withTotal: boolean) =>
    JSON.stringify(
      (rows ?? [])
        .filter((r) => String(r.b) !== '0' || (withTotal && String(r.t) !== '0'))
        .map((r) => [r.user_id, withTotal ? String(r.t) : null, String(r.b)]),
    );
  const differing: string[] = [];
  for (const name of Object.keys(results)) {
    if (name === RAW) continue;
    const withTotal = !name.startsWith('leaderboard');
    if (key(results[name], withTotal) !== key(results[RAW], withTotal)) differing.push(name);
  }
  return differing;
}

export async function check(serverEnv: NodeJS.ProcessEnv): Promise<Check> {
  if (serverEnv.DATABASE_URL) {
    const client = new pg.Client({ connectionString: serverEnv.DATABASE_URL });
    await client.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ'); // one snapshot for every read
      const events = await client.query<{ n: string; b: string }>(
        'select count(*)::text n, coalesce(sum(inserted),0)::text b from ingest_events',
      );
      const results: Record<string, UserSums> = {};
      const sumsOf = async (sql: string) =>
        (
          await client.query<{ user_id: string; t: unknown; b: unknown }>(
            `select user_id::text, t::text, b::text from (${sql}) x order by user_id`,
          )
        ).rows;
      // A build from before the raw buckets were packed by day (BENCH_SERVER) has them one per row.
      if ((await client.query(`select to_regclass('usage_device_days') t`)).rows[0]?.t)
        results[RAW] = sumDeviceDays(
          (await client.query<{ user_id: string; day: string; buckets: string }>(DEVICE_DAYS)).rows,
        );
      else results[RAW] = await sumsOf(BUCKET_ROWS);
      for (const [name, sql] of Object.entries(SUMS)) results[name] = await sumsOf(sql);
      if ((await client.query(`select to_regclass('usage_blocks') t`)).rows[0]?.t)
        results.usage_blocks = await sumsOf(BLOCKS);
      // A build from before the packed days (BENCH_SERVER) has no usage_days to check.
      if ((await client.query(`select to_regclass('usage_days') t`)).rows[0]?.t)
        results.usage_days = sumDays((await client.query<{ user_id: string; counts: string }>(DAYS)).rows);
      const teams: Record<string, [UserSums, UserSums]> = {};
      for (const [name, [stored, members]] of Object.entries(TEAM_SUMS))
        if ((await client.query(`select to_regclass('${name}') t`)).rows[0]?.t)
          teams[name] = [await sumsOf(stored), await sumsOf(members)];
      await client.query('COMMIT');
      return {
        events: Number(events.rows[0]?.n),
        bucketsInEvents: Number(events.rows[0]?.b),
        differing: [...compareSums(results), ...compareTeams(teams)],
      };
    } finally {
      await client.end();
    }
  }
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(serverEnv.DATA_DIR ?? '', 'tokentally.db'), { readonly: true });
  try {
    db.defaultSafeIntegers(true);
    db.exec('BEGIN'); // one snapshot for every read
    const events = db.prepare('select count(*) n, coalesce(sum(inserted),0) b from ingest_events').get() as {
      n: bigint;
      b: bigint;
    };
    const results: Record<string, UserSums> = {};
    const sumsOf = (sql: string) => db.prepare(`select * from (${sql}) order by user_id`).all() as UserSums;
    if (db.prepare(`select 1 from sqlite_master where name = 'usage_device_days'`).get())
      results[RAW] = sumDeviceDays(
        db.prepare(DEVICE_DAYS).all() as { user_id: string; day: bigint; buckets: string }[],
      );
    else results[RAW] = sumsOf(BUCKET_ROWS);
    for (const [name, sql] of Object.entries(SUMS)) results[name] = sumsOf(sql);
    if (db.prepare(`select 1 from sqlite_master where name = 'usage_blocks'`).get())
      results.usage_blocks = sumsOf(BLOCKS);
    if (db.prepare(`select 1 from sqlite_master where name = 'usage_days'`).get())
      results.usage_days = sumDays(db.prepare(DAYS).all() as { user_id: string; counts: string }[]);
    const teams: Record<string, [UserSums, UserSums]> = {};
    for (const [name, [stored, members]] of Object.entries(TEAM_SUMS))
      if (db.prepare(`select 1 from sqlite_master where name = ?`).get(name))
        teams[name] = [sumsOf(stored), sumsOf(members)];
    return {
      events: Number(events.n),
      bucketsInEvents: Number(events.b),
      differing: [...compareSums(results), ...compareTeams(teams)],
    };
  } finally {
    db.close();
  }
}
