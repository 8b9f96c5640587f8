/**
 * @fileoverview Migration 0009: `usage_days` — one row per (user, UTC epoch day) holding the day's
 * sums and each non-empty half-hour's sums as one packed text (src/domain/day-slots.ts) — replaces
 * `usage_day_prefix` (two-level prefix sums, one row per (user, k, day)).
 *
 * Why: an upload's changed half-hours moved ~20 prefix rows (up to 13 per half-hour), each its own
 * upsert on its own page when an upload's half-hours lie on a day of their own (a first sync's
 * backfill); the packed day is one read and one write per upload and day. Local days are cut from
 * the packed half-hours on read (db/queries/day-pieces.ts).
 *
 * The rows are built from `usage_rollup` (the per-half-hour source of truth) in one statement per
 * engine, in the same text the writers produce; `down` rebuilds the prefix table the same way.
 * SQLite keeps `usage_days` as a rowid table: a packed day can pass 1 KB, past which a WITHOUT ROWID
 * row would spill to overflow pages.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';

const COUNTS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'];
const DAY_MS = 86_400_000;
const HALF_HOUR_MS = 1_800_000;
const dayOf = (hourStart: string) => `(${hourStart} / ${DAY_MS})`;
const slotOf = (hourStart: string) => `((${hourStart} % ${DAY_MS}) / ${HALF_HOUR_MS})`;

/** `a || ',' || b || …` of text-cast expressions. */
const joined = (parts: string[]) => parts.map((p) => `cast(${p} as text)`).join(` || ',' || `);

export function migration(dialect: DialectName) {
  const aggregate = dialect === 'sqlite' ? 'group_concat' : 'string_agg';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('usage_days')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('counts', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_days_pk', ['user_id', 'day'])
        .execute();
      // Half-hours summed across sources and models; empty ones (all sums zero) are left out.
      await sql
        .raw(
          `insert into usage_days (user_id, day, counts)
        select user_id, day, ${joined(COUNTS.map((c) => `sum(${c})`))} || ',' || ${aggregate}(entry, ',' order by slot)
          from (select user_id, ${dayOf('hour_start')} as day, ${slotOf('hour_start')} as slot,
                       ${COUNTS.map((c) => `sum(${c}) as ${c}`).join(', ')},
                       ${joined([slotOf('hour_start'), ...COUNTS.map((c) => `sum(${c})`)])} as entry
                  from usage_rollup
                 group by user_id, ${dayOf('hour_start')}, ${slotOf('hour_start')}
                having ${COUNTS.map((c) => `sum(${c}) <> 0`).join(' or ')}) s
         group by user_id, day`,
        )
        .execute(db);
      await db.schema.dropTable('usage_day_prefix').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      let table = db.schema
        .createTable('usage_day_prefix')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('k', 'bigint', (c) => c.notNull())
        .addColumn('day', 'bigint', (c) => c.notNull());
      for (const c of COUNTS) table = table.addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0));
      await clustered(dialect, table.addPrimaryKeyConstraint('usage_day_prefix_pk', ['user_id', 'k', 'day'])).execute();
      // Row k: for k a multiple of 8 the half-hours before k, otherwise those from k's block of 8 up to k.
      const ks = Array.from({ length: 48 }, (_, i) => `select ${i + 1} as k`).join(' union all ');
      const touches = `(h.k > ${slotOf('r.hour_start')} and (h.k % 8 = 0 or h.k / 8 = ${slotOf('r.hour_start')} / 8))`;
      await sql
        .raw(
          `insert into usage_day_prefix (user_id, k, day, ${COUNTS.join(', ')})
        select r.user_id, h.k, ${dayOf('r.hour_start')}, ${COUNTS.map((c) => `sum(r.${c})`).join(', ')}
          from usage_rollup r join (${ks}) h on ${touches}
         group by r.user_id, h.k, ${dayOf('r.hour_start')}`,
        )
        .execute(db);
      await db.schema.dropTable('usage_days').execute();
    },
  };
}
