/**
 * @fileoverview Migration 0027: `usage_blocks`, `usage_daily` summed per (user, block of 16 UTC
 * days, source, model): counts and stored costs. A team's usage reads a long window's whole blocks
 * (23 rows a (member, source, model) for a year) and only the days around them from `usage_daily`
 * (docs/teams.md, "Speed").
 *
 * Kept by the code that writes `usage_daily`, not by triggers (which cost PostgreSQL uploads about
 * a quarter more database CPU): the ingest writers add each changed daily row's change in the
 * statement batch they already send, the repricing swap sets the blocks' costs with the days',
 * account deletion removes a user's. Per user, not per team: joining a team shows a member's whole
 * history and leaving stops it at once, with nothing to rebuild. Block = floor(day / 16); days
 * before 1970 have no block (the reads take them from `usage_daily`).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';

const SUMMED = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable', 'cost_micros'];
const BLOCK_DAYS = 16;

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      let table = db.schema
        .createTable('usage_blocks')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('block', 'bigint', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull());
      for (const c of SUMMED) table = table.addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0));
      await clustered(
        dialect,
        table.addPrimaryKeyConstraint('usage_blocks_pk', ['user_id', 'block', 'source', 'model']),
      ).execute();
      await sql
        .raw(
          `insert into usage_blocks (user_id, block, source, model, ${SUMMED.join(', ')})
           select user_id, day / ${BLOCK_DAYS}, source, model, ${SUMMED.map((c) => `sum(${c})`).join(', ')}
             from usage_daily where day >= 0 group by user_id, day / ${BLOCK_DAYS}, source, model`,
        )
        .execute(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('usage_blocks').ifExists().execute();
    },
  };
}
