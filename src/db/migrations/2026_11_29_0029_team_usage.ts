/**
 * @fileoverview Migration 0029: the team-side read model (docs/teams.md, "Speed"; docs/decisions.md,
 * "A team-side model"). `team_usage_rollup` (team, half-hour, source, model) and
 * `team_usage_daily` (team, UTC day, source, model) hold the six token counts summed over the
 * team's current members' `usage_rollup` and `usage_daily` rows, so a team's `day` answer reads a
 * few rows a day instead of its members'. Counts only: `day` prices each local-day piece from its
 * counts, never from a stored cost.
 *
 * Kept by the code that changes a member's usage or a membership, in the same transaction: the
 * ingest writers add each uploader's deltas to each of their teams' rows (read under the user's
 * ingest lock), joining adds the member's whole history, leaving or being removed subtracts it
 * (rows left all zero go), deleting a team deletes its rows, deleting an account subtracts it from
 * each of its teams first. No foreign key to `teams`: the team's deletion deletes the rows itself
 * (holding every member's ingest lock, so no upload adds to them meanwhile), and a key would cost
 * every inserted row of an upload a lookup in `teams`. The backfill sums the members' rows now.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';

const SUMMED = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'];

export function migration(dialect: DialectName) {
  const create = async (db: Kysely<any>, name: string, time: string): Promise<void> => {
    let table = db.schema
      .createTable(name)
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn(time, 'bigint', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull());
    for (const c of SUMMED) table = table.addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0));
    await clustered(
      dialect,
      table.addPrimaryKeyConstraint(`${name}_pk`, ['team_id', time, 'source', 'model']),
    ).execute();
  };
  const backfill = (db: Kysely<any>, name: string, from: string, time: string) =>
    sql
      .raw(
        `insert into ${name} (team_id, ${time}, source, model, ${SUMMED.join(', ')})
         select m.team_id, r.${time}, r.source, r.model, ${SUMMED.map((c) => `sum(r.${c})`).join(', ')}
           from team_members m join ${from} r on r.user_id = m.user_id
          group by m.team_id, r.${time}, r.source, r.model`,
      )
      .execute(db);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await create(db, 'team_usage_rollup', 'hour_start');
      await create(db, 'team_usage_daily', 'day');
      await backfill(db, 'team_usage_rollup', 'usage_rollup', 'hour_start');
      await backfill(db, 'team_usage_daily', 'usage_daily', 'day');
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('team_usage_daily').ifExists().execute();
      await db.schema.dropTable('team_usage_rollup').ifExists().execute();
    },
  };
}
