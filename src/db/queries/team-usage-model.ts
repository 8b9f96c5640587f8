/**
 * @fileoverview The team-side read model (migrations 0029, 0030) kept through membership changes:
 * a member's whole history (counts, and the daily rows' stored costs) added to a team's rows when
 * they join (or create it), subtracted when they leave, are removed or delete their account, and a
 * team's rows deleted with it. The ingest writers keep it through uploads (core/upload.ts,
 * `GroupPlan.readModels`), the repricing swap sets the costs again (daily-costs.ts).
 *
 * Run inside the membership change's transaction, while the membership row exists (after it is
 * inserted, before it is deleted): the statements find the teams through it. On PostgreSQL the
 * caller holds the user's ingest lock and the stored costs shared (db/locks.ts, `lockUserUsage`),
 * so neither an upload of the user nor a repricing swap commits between what this reads of the
 * user's rows and the membership change (docs/decisions.md, "A team-side model"). Each upsert
 * adds in key order, a statement a table, rollup, spans, daily, as the ingest writers do, so
 * writers sharing a team's rows lock them in one order.
 */
import { sql, type RawBuilder } from 'kysely';
import { SPAN_MS } from '../../domain/calendar.js';
import type { Db, Queryable } from '../connect.js';

const COUNTS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'] as const;
/**
 * Each team table, rollup, spans, daily (the ingest writers' order): its time column, the member's
 * table it sums and that table's time of a row (`of`), and when a member row lies in a team row.
 */
const TABLES = [
  {
    table: 'team_usage_rollup',
    time: 'hour_start',
    from: 'usage_rollup',
    of: 'r.hour_start',
    within: 'r.hour_start = t.hour_start',
    summed: COUNTS,
  },
  {
    table: 'team_usage_spans',
    time: 'span_start',
    from: 'usage_rollup',
    of: `r.hour_start - r.hour_start % ${SPAN_MS}`,
    within: `r.hour_start >= t.span_start and r.hour_start < t.span_start + ${SPAN_MS}`,
    summed: COUNTS,
  },
  {
    table: 'team_usage_daily',
    time: 'day',
    from: 'usage_daily',
    of: 'r.day',
    within: 'r.day = t.day',
    summed: [...COUNTS, 'cost_micros'],
  },
] as const;

/** The user's memberships: of `teamId` only, or every one (null). */
const memberships = (userId: string, teamId: string | null): RawBuilder<unknown> =>
  teamId === null ? sql`m.user_id = ${userId}` : sql`m.user_id = ${userId} and m.team_id = ${teamId}`;

/**
 * Adds (`sign` 1) or subtracts (-1) the user's whole usage to the rows of `teamId`, or of every
 * team the user is a member of (null); subtracting deletes the rows it leaves all zero.
 */
export async function moveMemberUsage(
  db: Queryable,
  userId: string,
  teamId: string | null,
  sign: 1 | -1,
): Promise<void> {
  for (const { table, time, from, of, within, summed } of TABLES) {
    const cols = sql.raw(`team_id, ${time}, source, model, ${summed.join(', ')}`);
    const sums = sql.raw(summed.map((c) => `${sign === 1 ? '' : '-'}sum(r.${c})`).join(', '));
    const add = sql.raw(summed.map((c) => `${c} = t.${c} + excluded.${c}`).join(', '));
    const key = sql.raw(`m.team_id, ${of}, r.source, r.model`);
    await sql`insert into ${sql.table(table)} as t (${cols})
      select ${key}, ${sums}
        from team_members m join ${sql.table(from)} r on r.user_id = m.user_id
       where ${memberships(userId, teamId)}
       group by ${key} order by ${key}
      on conflict (team_id, ${sql.raw(time)}, source, model) do update set ${add}`.execute(db);
    if (sign === -1) {
      const zero = sql.raw(summed.map((c) => `t.${c} = 0`).join(' and '));
      await sql`delete from ${sql.table(table)} as t
        where t.team_id in (select m.team_id from team_members m where ${memberships(userId, teamId)}) and ${zero}
          and exists (select 1 from ${sql.table(from)} r where r.user_id = ${userId}
                         and ${sql.raw(within)} and r.source = t.source and r.model = t.model)`.execute(db);
    }
  }
}

/** Deletes the team's rows (the team is being deleted). */
export async function deleteTeamUsage(db: Queryable, teamId: string): Promise<void> {
  await db.deleteFrom('team_usage_rollup').where('team_id', '=', teamId).execute();
  await db.deleteFrom('team_usage_spans').where('team_id', '=', teamId).execute();
  await db.deleteFrom('team_usage_daily').where('team_id', '=', teamId).execute();
}

/**
 * Runs a read of the team-side model. On SQLite it waits for a write transaction open on the app's
 * connection (raw-rows.ts reads skip it and would see its writes so far): a membership change moves
 * the two tables one statement after the other, and a read between them would cut one against the
 * other, or the members' rows against the team's.
 */
export function readTeamModel<T>(db: Db, read: () => Promise<T>): Promise<T> {
  return db.dialect === 'sqlite' && db.sqlite.inTransaction ? db.writeLock.run(read) : read();
}
