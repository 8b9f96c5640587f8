/**
 * @fileoverview Migration 0030: more of the team-side read model (migration 0029; docs/teams.md,
 * "Speed"), kept where its counts are (the ingest writers, the membership changes) and filled from
 * the current members' rows:
 *
 * - `team_usage_daily.cost_micros`, the team's stored cost of a (UTC day, source, model): the sum of
 *   its members' `usage_daily.cost_micros`, which the repricing swap also sets again. A whole
 *   team's totals, `model` and `source` rows read the team's few rows a day instead of every
 *   member's (a year: about 730 rows against 13,600).
 * - `team_usage_spans`: the team's half-hours summed per 4-hour span of a UTC day (span start =
 *   hour_start less its remainder by 4 hours). A `day` answer reads the smaller side of each UTC
 *   day's local midnight from whole spans and at most seven half-hours, not every half-hour of it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';

const SUMMED = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'];
const SPAN_MS = 14_400_000;

export function migration(dialect: DialectName) {
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

      let spans = db.schema
        .createTable('team_usage_spans')
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('span_start', 'bigint', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull());
      for (const c of SUMMED) spans = spans.addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0));
      await clustered(
        dialect,
        spans.addPrimaryKeyConstraint('team_usage_spans_pk', ['team_id', 'span_start', 'source', 'model']),
      ).execute();
      const span = `r.hour_start - r.hour_start % ${SPAN_MS}`;
      await sql
        .raw(
          `insert into team_usage_spans (team_id, span_start, source, model, ${SUMMED.join(', ')})
           select r.team_id, ${span}, r.source, r.model, ${SUMMED.map((c) => `sum(r.${c})`).join(', ')}
             from team_usage_rollup r group by r.team_id, ${span}, r.source, r.model`,
        )
        .execute(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('team_usage_spans').ifExists().execute();
      await db.schema.alterTable('team_usage_daily').dropColumn('cost_micros').execute();
    },
  };
}
