/**
 * @fileoverview Migration 0030: `team_usage_daily.cost_micros`, the team's stored cost of a (UTC
 * day, source, model): the sum of its current members' `usage_daily.cost_micros` (docs/teams.md,
 * "Speed"). A whole team's totals, `model` and `source` rows read the team's few rows a day
 * instead of every member's (a year: about 730 rows against 13,600). Kept where the counts are
 * (migration 0029): the ingest writers add each changed member row's cost difference, membership
 * changes move it with the counts, and the repricing swap sets it again from the members' new
 * costs. The backfill sums the members' stored costs now.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('team_usage_daily')
        .addColumn('cost_micros', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update team_usage_daily as t set cost_micros = s.cost
        from (select m.team_id, r.day, r.source, r.model, sum(r.cost_micros) as cost
                from team_members m join usage_daily r on r.user_id = m.user_id
               group by m.team_id, r.day, r.source, r.model) as s
       where t.team_id = s.team_id and t.day = s.day and t.source = s.source and t.model = s.model`.execute(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('team_usage_daily').dropColumn('cost_micros').execute();
    },
  };
}
