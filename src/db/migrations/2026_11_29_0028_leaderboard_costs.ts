/**
 * @fileoverview Migration 0028: the leaderboard carries cost beside tokens. The per-period family
 * tables (`leaderboard_user_weeks`, `_months`, `_totals`) get `gpt_cost`, `claude_cost` and
 * `other_cost`: the stored costs (`usage_daily.cost_micros`, micro-dollars) of the user's rows in
 * the period, per model family; the ingest writers keep them with the tokens, from each priced
 * `usage_daily` row's change, and the repricing swap moves them with the stored costs it changes
 * (docs/leaderboard.md). Snapshot members (`leaderboard_members`) get the four costs they show.
 *
 * Filled from `usage_daily` in bulk, one upsert per table (a user whose usage has a cost but no
 * billable tokens in a period gets a row with zero tokens, as the writers would write it). The
 * current snapshots were made without costs: they are let go (`leaderboard_current` emptied), so
 * the first read of each period makes a new one rather than showing zero costs until the next
 * scheduled refresh.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { familyAmounts } from './leaderboard-aggregates.js';

const FAMILY_TABLES = ['leaderboard_user_weeks', 'leaderboard_user_months', 'leaderboard_user_totals'] as const;
const FAMILY_COSTS = ['gpt_cost', 'claude_cost', 'other_cost'] as const;
const MEMBER_COSTS = ['total_cost', ...FAMILY_COSTS] as const;

/** UTC month number (`year·12 + month − 1`) of an epoch-day expression. */
function monthOfDay(dialect: DialectName, day: string): string {
  if (dialect === 'sqlite') {
    return `(cast(strftime('%Y', ${day} * 86400, 'unixepoch') as integer) * 12 + cast(strftime('%m', ${day} * 86400, 'unixepoch') as integer) - 1)`;
  }
  return `((extract(year from (to_timestamp(${day} * 86400) at time zone 'UTC')) * 12 + extract(month from (to_timestamp(${day} * 86400) at time zone 'UTC')) - 1)::bigint)`;
}

/** Each family table's key columns and their values from a `usage_daily` row `r`. */
function keysOf(dialect: DialectName, table: (typeof FAMILY_TABLES)[number]): { keys: string[]; values: string[] } {
  if (table === 'leaderboard_user_weeks')
    return { keys: ['user_id', 'week'], values: ['r.user_id', '((r.day + 3) / 7)'] };
  if (table === 'leaderboard_user_months')
    return { keys: ['user_id', 'month'], values: ['r.user_id', monthOfDay(dialect, 'r.day')] };
  return { keys: ['user_id'], values: ['r.user_id'] };
}

async function addColumn(db: Kysely<any>, table: string, column: string): Promise<void> {
  // One column a statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema
    .alterTable(table)
    .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      for (const table of FAMILY_TABLES) for (const column of FAMILY_COSTS) await addColumn(db, table, column);
      for (const column of MEMBER_COSTS) await addColumn(db, 'leaderboard_members', column);
      const [g, c, o] = familyAmounts(dialect, 'r.model', 'r.cost_micros');
      for (const table of FAMILY_TABLES) {
        const { keys, values } = keysOf(dialect, table);
        // `where true`: SQLite's parser needs it between an INSERT's SELECT and ON CONFLICT.
        await sql
          .raw(
            `insert into ${table} (${keys.join(', ')}, gpt, claude, other, gpt_cost, claude_cost, other_cost)
             select ${values.join(', ')}, 0, 0, 0, sum(${g}), sum(${c}), sum(${o}) from usage_daily r where true
              group by ${values.join(', ')}
             on conflict (${keys.join(', ')}) do update set
               gpt_cost = excluded.gpt_cost, claude_cost = excluded.claude_cost, other_cost = excluded.other_cost`,
          )
          .execute(db);
      }
      await db.deleteFrom('leaderboard_current').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const column of MEMBER_COSTS) await db.schema.alterTable('leaderboard_members').dropColumn(column).execute();
      for (const table of FAMILY_TABLES)
        for (const column of FAMILY_COSTS) await db.schema.alterTable(table).dropColumn(column).execute();
    },
  };
}
