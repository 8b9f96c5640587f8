/**
 * @fileoverview Read models for the analytics endpoints, kept in step with `usage_rollup` by
 * triggers (so every writer of the rollup — both ingest writers, seeding, repairs — keeps them
 * right, inside the same transaction). Both are zone-free: they hold UTC facts only.
 *
 * - `usage_daily`: per (user, UTC epoch day, source, model) sums. Prices are per (model, UTC
 *   day), so summary, model breakdown and cost read one row per model and day.
 * - `usage_day_prefix`: per (user, k, UTC epoch day), two-level prefix sums of the user's
 *   half-hours on that UTC day, across sources and models, in blocks of 8 half-hours: for k a
 *   multiple of 8 (8, 16, …, 48) the sum of the half-hours with index < k (k = 48 is the whole
 *   day); for other k the sum of the half-hours from the start of k's block up to k (exclusive).
 *   So P(d, k) = row(8·⌊k/8⌋) + row(k), and a changed half-hour touches at most 13 rows.
 *   A local day (in any zone) is a run of whole UTC half-hours, so it is `P(d2, k2) − P(d1, k1)`
 *   plus whole UTC days: daily, monthly and heatmap read two or three rows per day instead of
 *   every half-hour (docs/analytics.md).
 *
 * SQLite: row triggers with a 48-row helper table; PostgreSQL: statement triggers over
 * transition tables, one set-based upsert per table and statement.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';

const DAY_MS = 86_400_000;
const HALF_HOUR_MS = 1_800_000;
const COUNTS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'] as const;

function withTokens(table: CreateTableBuilder<string, string>): CreateTableBuilder<string, string> {
  let t = table;
  for (const c of COUNTS) t = t.addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0));
  return t;
}

const addOnConflict = (table: string, keys: string) =>
  `on conflict (${keys}) do update set ${COUNTS.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`;

const dayOf = (hourStart: string) => `(${hourStart} / ${DAY_MS})`;
const slotOf = (hourStart: string) => `((${hourStart} % ${DAY_MS}) / ${HALF_HOUR_MS})`;
/** Half-hours per block of the two-level prefix. */
const BLOCK = 8;
/** The prefix rows k a half-hour at `slot` adds to: block rows k = 8j above it, and the rows above it inside its own block. */
const touches = (k: string, slot: string) =>
  `(${k} > ${slot} and (${k} % ${BLOCK} = 0 or ${k} / ${BLOCK} = ${slot} / ${BLOCK}))`;

/** SQLite: the two upserts adding one row's counts times `sign` (`new.x`, `-old.x` or `new.x - old.x`). */
function sqliteUpserts(row: 'new' | 'old', amount: (c: string) => string): string {
  const values = COUNTS.map(amount).join(', ');
  return `insert into usage_daily (user_id, day, source, model, ${COUNTS.join(', ')})
    values (${row}.user_id, ${dayOf(`${row}.hour_start`)}, ${row}.source, ${row}.model, ${values})
    ${addOnConflict('usage_daily', 'user_id, day, source, model')};
  insert into usage_day_prefix (user_id, k, day, ${COUNTS.join(', ')})
    select ${row}.user_id, h.k, ${dayOf(`${row}.hour_start`)}, ${values} from usage_halfhour_index h where ${touches('h.k', slotOf(`${row}.hour_start`))}
    ${addOnConflict('usage_day_prefix', 'user_id, k, day')};`;
}

/** Installs the SQLite row triggers (used by this migration, and by 0004's `down`). */
export async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create trigger usage_rollup_analytics_insert after insert on usage_rollup begin
  ${sqliteUpserts('new', (c) => `new.${c}`)}
end`,
    )
    .execute(db);
  const sameKey =
    'new.user_id = old.user_id and new.hour_start = old.hour_start and new.source = old.source and new.model = old.model';
  const changed = COUNTS.map((c) => `new.${c} <> old.${c}`).join(' or ');
  await sql
    .raw(
      `create trigger usage_rollup_analytics_update after update on usage_rollup when ${sameKey} and (${changed}) begin
  ${sqliteUpserts('new', (c) => `new.${c} - old.${c}`)}
end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger usage_rollup_analytics_rekey after update on usage_rollup when not (${sameKey}) begin
  ${sqliteUpserts('old', (c) => `-old.${c}`)}
  ${sqliteUpserts('new', (c) => `new.${c}`)}
end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger usage_rollup_analytics_delete after delete on usage_rollup begin
  ${sqliteUpserts('old', (c) => `-old.${c}`)}
end`,
    )
    .execute(db);
}

/** PostgreSQL: set-based upserts from a row source aliased `r` with the rollup's columns. */
function pgUpserts(from: string): string {
  const sums = COUNTS.map((c) => `sum(r.${c})`).join(', ');
  return `insert into usage_daily (user_id, day, source, model, ${COUNTS.join(', ')})
    select r.user_id, ${dayOf('r.hour_start')} as day, r.source, r.model, ${sums} from ${from} r
    group by r.user_id, day, r.source, r.model order by r.user_id, day, r.source, r.model
    ${addOnConflict('usage_daily', 'user_id, day, source, model')};
  insert into usage_day_prefix (user_id, k, day, ${COUNTS.join(', ')})
    select r.user_id, k.k, ${dayOf('r.hour_start')} as day, ${sums} from ${from} r
      cross join lateral generate_series(${slotOf('r.hour_start')}::int + 1, 48) as k(k)
     where ${touches('k.k', slotOf('r.hour_start'))}
    group by r.user_id, k.k, day order by r.user_id, k.k, day
    ${addOnConflict('usage_day_prefix', 'user_id, k, day')};`;
}

/** Installs the PostgreSQL statement triggers (used by this migration, and by 0004's `down`). */
export async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  const cols = `user_id, hour_start, source, model, ${COUNTS.join(', ')}`;
  const neg = `user_id, hour_start, source, model, ${COUNTS.map((c) => `-${c} as ${c}`).join(', ')}`;
  const fn = async (name: string, from: string) => {
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $fn$
begin
  ${pgUpserts(from)}
  return null;
end
$fn$`,
      )
      .execute(db);
  };
  await fn('usage_rollup_analytics_insert', `(select ${cols} from new_rows)`);
  await fn('usage_rollup_analytics_delete', `(select ${neg} from old_rows)`);
  await fn('usage_rollup_analytics_update', `(select ${cols} from new_rows union all select ${neg} from old_rows)`);
  await sql
    .raw(
      `create trigger usage_rollup_analytics_insert after insert on usage_rollup referencing new table as new_rows
    for each statement execute function usage_rollup_analytics_insert()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger usage_rollup_analytics_update after update on usage_rollup referencing new table as new_rows old table as old_rows
    for each statement execute function usage_rollup_analytics_update()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger usage_rollup_analytics_delete after delete on usage_rollup referencing old table as old_rows
    for each statement execute function usage_rollup_analytics_delete()`,
    )
    .execute(db);
}

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await clustered(
        dialect,
        withTokens(
          db.schema
            .createTable('usage_daily')
            .addColumn('user_id', 'text', (c) => c.notNull())
            .addColumn('day', 'bigint', (c) => c.notNull())
            .addColumn('source', 'text', (c) => c.notNull())
            .addColumn('model', 'text', (c) => c.notNull()),
        ).addPrimaryKeyConstraint('usage_daily_pk', ['user_id', 'day', 'source', 'model']),
      ).execute();
      await clustered(
        dialect,
        withTokens(
          db.schema
            .createTable('usage_day_prefix')
            .addColumn('user_id', 'text', (c) => c.notNull())
            .addColumn('k', 'bigint', (c) => c.notNull())
            .addColumn('day', 'bigint', (c) => c.notNull()),
        ).addPrimaryKeyConstraint('usage_day_prefix_pk', ['user_id', 'k', 'day']),
      ).execute();

      // Backfill from what is stored already.
      await sql
        .raw(
          `insert into usage_daily (user_id, day, source, model, ${COUNTS.join(', ')})
        select user_id, ${dayOf('hour_start')}, source, model, ${COUNTS.map((c) => `sum(${c})`).join(', ')}
          from usage_rollup group by user_id, ${dayOf('hour_start')}, source, model`,
        )
        .execute(db);

      if (dialect === 'sqlite') {
        await db.schema
          .createTable('usage_halfhour_index')
          .addColumn('k', 'integer', (c) => c.primaryKey())
          .execute();
        await sql
          .raw(
            `insert into usage_halfhour_index (k) ${Array.from({ length: 48 }, (_, i) => `select ${i + 1}`).join(' union all ')}`,
          )
          .execute(db);
        await sql
          .raw(
            `insert into usage_day_prefix (user_id, k, day, ${COUNTS.join(', ')})
          select r.user_id, h.k, ${dayOf('r.hour_start')}, ${COUNTS.map((c) => `sum(r.${c})`).join(', ')}
            from usage_rollup r join usage_halfhour_index h on ${touches('h.k', slotOf('r.hour_start'))}
           group by r.user_id, h.k, ${dayOf('r.hour_start')}`,
          )
          .execute(db);
        await createSqliteTriggers(db);
      } else {
        await sql
          .raw(
            `insert into usage_day_prefix (user_id, k, day, ${COUNTS.join(', ')})
          select r.user_id, k.k, ${dayOf('r.hour_start')} as day, ${COUNTS.map((c) => `sum(r.${c})`).join(', ')}
            from usage_rollup r cross join lateral generate_series(${slotOf('r.hour_start')}::int + 1, 48) as k(k)
           where ${touches('k.k', slotOf('r.hour_start'))}
           group by r.user_id, k.k, day`,
          )
          .execute(db);
        await createPostgresTriggers(db);
      }
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const op of ['insert', 'update', 'rekey', 'delete']) {
        await sql
          .raw(`drop trigger if exists usage_rollup_analytics_${op}${dialect === 'postgres' ? ' on usage_rollup' : ''}`)
          .execute(db);
        if (dialect === 'postgres') await sql.raw(`drop function if exists usage_rollup_analytics_${op}()`).execute(db);
      }
      for (const table of ['usage_halfhour_index', 'usage_day_prefix', 'usage_daily'])
        await db.schema.dropTable(table).ifExists().execute();
    },
  };
}
