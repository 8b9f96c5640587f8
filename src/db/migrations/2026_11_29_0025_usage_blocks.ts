/**
 * @fileoverview Migration 0025: reads of `usage_daily` by day, for a team's usage (docs/teams.md,
 * "Speed").
 *
 * - `usage_daily_user_day`: `usage_daily` by (user, day), covering the row, so a window reads only
 *   its own days. The table's key is (user, source, model, day): a day range alone reads the
 *   user's whole history.
 * - `usage_blocks`: `usage_daily` summed per (user, block of 16 UTC days, source, model), counts
 *   and stored costs, kept by triggers on `usage_daily`. A long window reads its whole blocks
 *   (23 rows a (member, source, model) for a year) and only the days at its ends from
 *   `usage_daily`. Per user, not per team: a member's whole history is visible to a team and
 *   leaving stops it at once, which a team-keyed sum would have to follow.
 *
 * Triggers, not code in the writers: everything that writes `usage_daily` (the two ingest writers,
 * the repricing swap, account deletion) keeps the blocks without knowing of them, and an upload
 * touches one daily row per (day, source, model), so one block row more. Days before 1970 have no
 * block (SQL's integer division truncates): the reads take such days from `usage_daily`.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';

const SUMMED = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable', 'cost_micros'];
const BLOCK_DAYS = 16;
const KEY = 'user_id, block, source, model';
const COLUMNS = `${KEY}, ${SUMMED.join(', ')}`;
const addOnConflict = `on conflict (${KEY}) do update set ${SUMMED.map((c) => `${c} = usage_blocks.${c} + excluded.${c}`).join(', ')}`;
const OPS = ['insert', 'update', 'delete'] as const;

/** SQLite row triggers: add the new row, take the old one off (never creating a row for it). */
function sqliteTriggers(): string[] {
  const values = (row: 'new' | 'old', sign = '') =>
    `${row}.user_id, ${row}.day / ${BLOCK_DAYS}, ${row}.source, ${row}.model, ${SUMMED.map((c) => `${sign}${row}.${c}`).join(', ')}`;
  const add = `insert into usage_blocks (${COLUMNS}) select ${values('new')} where new.day >= 0 ${addOnConflict};`;
  const takeOff = `update usage_blocks set ${SUMMED.map((c) => `${c} = ${c} - old.${c}`).join(', ')}
     where old.day >= 0 and user_id = old.user_id and block = old.day / ${BLOCK_DAYS} and source = old.source and model = old.model;`;
  return [
    `create trigger usage_daily_blocks_insert after insert on usage_daily begin ${add} end`,
    `create trigger usage_daily_blocks_update after update on usage_daily begin ${takeOff} ${add} end`,
    `create trigger usage_daily_blocks_delete after delete on usage_daily begin ${takeOff} end`,
  ];
}

/** PostgreSQL statement triggers: a statement's rows summed per block first, one upsert per block. */
function postgresTriggers(): string[] {
  const cols = (table: string, sign = '') =>
    `select user_id, day / ${BLOCK_DAYS} as block, source, model, ${SUMMED.map((c) => `${sign}${c} as ${c}`).join(', ')} from ${table} where day >= 0`;
  const from: Record<(typeof OPS)[number], string> = {
    insert: cols('new_rows'),
    update: `${cols('new_rows')} union all ${cols('old_rows', '-')}`,
    delete: cols('old_rows', '-'),
  };
  const referencing = {
    insert: 'new table as new_rows',
    update: 'new table as new_rows old table as old_rows',
    delete: 'old table as old_rows',
  };
  return OPS.flatMap((op) => [
    `create function usage_daily_blocks_${op}() returns trigger language plpgsql as $fn$
begin
  insert into usage_blocks (${COLUMNS})
  select ${KEY}, ${SUMMED.map((c) => `sum(${c})`).join(', ')} from (${from[op]}) d group by ${KEY}
  ${addOnConflict};
  return null;
end
$fn$`,
    `create trigger usage_daily_blocks_${op} after ${op} on usage_daily referencing ${referencing[op]}
    for each statement execute function usage_daily_blocks_${op}()`,
  ]);
}

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const covered = ['source', 'model', ...SUMMED];
      await sql
        .raw(
          dialect === 'sqlite'
            ? `create index usage_daily_user_day on usage_daily (user_id, day, ${covered.join(', ')})`
            : `create index usage_daily_user_day on usage_daily (user_id, day) include (${covered.join(', ')})`,
        )
        .execute(db);
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
          `insert into usage_blocks (${COLUMNS})
           select user_id, day / ${BLOCK_DAYS}, source, model, ${SUMMED.map((c) => `sum(${c})`).join(', ')}
             from usage_daily where day >= 0 group by user_id, day / ${BLOCK_DAYS}, source, model`,
        )
        .execute(db);
      for (const statement of dialect === 'sqlite' ? sqliteTriggers() : postgresTriggers())
        await sql.raw(statement).execute(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const op of OPS) {
        await sql
          .raw(`drop trigger if exists usage_daily_blocks_${op}${dialect === 'postgres' ? ' on usage_daily' : ''}`)
          .execute(db);
        if (dialect === 'postgres') await sql.raw(`drop function if exists usage_daily_blocks_${op}()`).execute(db);
      }
      await db.schema.dropTable('usage_blocks').ifExists().execute();
      await db.schema.dropIndex('usage_daily_user_day').ifExists().execute();
    },
  };
}
