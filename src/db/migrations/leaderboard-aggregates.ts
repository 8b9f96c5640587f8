/**
 * @fileoverview A helper of migrations 0003 and 0004, not a migration (migrate.ts lists those): the
 * leaderboard's per-user billable tokens by model family for each ISO week, each calendar month
 * (UTC) and all time. Migration 0003 creates the tables with triggers keeping them in step with
 * `usage_rollup`; migration 0004 drops the triggers (the ingest writers keep the tables since;
 * its `down` makes them again). `rebuildLeaderboardAggregates` recomputes the tables in bulk
 * (bench/leaderboard.ts seeds with it).
 *
 * Migration 0003 chose triggers rather than code in the ingest writer: every writer of
 * `usage_rollup` (the two ingest writers, seeding, repairs) kept them right. SQLite: row triggers
 * applying each row's change; PostgreSQL: statement triggers over transition tables, one set-based
 * upsert per table and statement. The family patterns are frozen here as they were when written (gpt: `gpt-%`,
 * `o1%`…`o4%`, `openai/%`; claude: `claude-%`, `anthropic/%`; other: the rest); changing them later
 * takes a new migration that rebuilds these tables.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

const GPT = ['gpt-', 'o1', 'o2', 'o3', 'o4', 'openai/'];
const CLAUDE = ['claude-', 'anthropic/'];

/** SQL test of a family on a model expression (SQLite: binary ranges; PostgreSQL: LIKE). */
function isFamily(dialect: DialectName, model: string, prefixes: readonly string[]): string {
  const parts = prefixes.map((p) => {
    if (dialect === 'postgres') return `${model} like '${p}%'`;
    const upper = p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1);
    return `(${model} >= '${p}' and ${model} < '${upper}')`;
  });
  return `(${parts.join(' or ')})`;
}

/** The three family amounts of a row: `gpt, claude, other` expressions (also migration 0028's, for costs). */
export function familyAmounts(dialect: DialectName, model: string, amount: string): [string, string, string] {
  const g = isFamily(dialect, model, GPT);
  const c = isFamily(dialect, model, CLAUDE);
  return [
    `case when ${g} then ${amount} else 0 end`,
    `case when ${c} then ${amount} else 0 end`,
    `case when ${g} or ${c} then 0 else ${amount} end`,
  ];
}

const weekOf = (hourStart: string) => `((${hourStart} / 86400000 + 3) / 7)`;
function monthOf(dialect: DialectName, hourStart: string): string {
  if (dialect === 'sqlite') {
    return `(cast(strftime('%Y', ${hourStart} / 1000, 'unixepoch') as integer) * 12 + cast(strftime('%m', ${hourStart} / 1000, 'unixepoch') as integer) - 1)`;
  }
  return `((extract(year from (to_timestamp(${hourStart} / 1000) at time zone 'UTC')) * 12 + extract(month from (to_timestamp(${hourStart} / 1000) at time zone 'UTC')) - 1)::bigint)`;
}

interface Target {
  table: string;
  keys: string[];
  keyValues: (row: string) => string[];
}

function targets(dialect: DialectName): Target[] {
  return [
    {
      table: 'leaderboard_user_weeks',
      keys: ['user_id', 'week'],
      keyValues: (r) => [`${r}.user_id`, weekOf(`${r}.hour_start`)],
    },
    {
      table: 'leaderboard_user_months',
      keys: ['user_id', 'month'],
      keyValues: (r) => [`${r}.user_id`, monthOf(dialect, `${r}.hour_start`)],
    },
    { table: 'leaderboard_user_totals', keys: ['user_id'], keyValues: (r) => [`${r}.user_id`] },
  ];
}

const ON_CONFLICT_ADD = (t: Target) =>
  `on conflict (${t.keys.join(', ')}) do update set gpt = ${t.table}.gpt + excluded.gpt, claude = ${t.table}.claude + excluded.claude, other = ${t.table}.other + excluded.other`;

/** SQLite: one upsert adding a row's (signed) billable tokens. */
function sqliteUpsert(t: Target, row: 'NEW' | 'OLD', sign: '' | '-'): string {
  return sqliteUpsertAmount(t, row, `${sign}${row}.billable`);
}

/** SQLite: one upsert adding `amount` at the key and model family of `row`. */
function sqliteUpsertAmount(t: Target, row: 'NEW' | 'OLD', amount: string): string {
  const [g, c, o] = familyAmounts('sqlite', `${row}.model`, amount);
  return `insert into ${t.table} (${t.keys.join(', ')}, gpt, claude, other) values (${t.keyValues(row).join(', ')}, ${g}, ${c}, ${o}) ${ON_CONFLICT_ADD(t)};`;
}

/** PostgreSQL: one set-based upsert from a row source `(user_id, hour_start, model, billable)` aliased `r`. */
function pgUpsert(t: Target, from: string): string {
  const [g, c, o] = familyAmounts('postgres', 'r.model', 'r.billable');
  const keys = t.keyValues('r');
  const keyList = keys.map((k, i) => `${k} as k${i}`).join(', ');
  const keyRefs = keys.map((_, i) => `k${i}`).join(', ');
  return `insert into ${t.table} (${t.keys.join(', ')}, gpt, claude, other)
    select ${keyRefs}, sum(g), sum(c), sum(o) from (select ${keyList}, ${g} as g, ${c} as c, ${o} as o from ${from} r) x
    group by ${keyRefs} order by ${keyRefs}
    ${ON_CONFLICT_ADD(t)};`;
}

async function createTables(db: Kysely<any>): Promise<void> {
  const withFamilies = <T extends { addColumn: (...args: any[]) => T }>(b: T): T =>
    b
      .addColumn('gpt', 'bigint', (c: any) => c.notNull())
      .addColumn('claude', 'bigint', (c: any) => c.notNull())
      .addColumn('other', 'bigint', (c: any) => c.notNull());
  await withFamilies(
    db.schema
      .createTable('leaderboard_user_weeks')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('week', 'bigint', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('leaderboard_user_weeks_pk', ['user_id', 'week'])
    .execute();
  await db.schema
    .createIndex('leaderboard_user_weeks_week')
    .on('leaderboard_user_weeks')
    .columns(['week', 'user_id'])
    .execute();
  await withFamilies(
    db.schema
      .createTable('leaderboard_user_months')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('month', 'bigint', (c) => c.notNull()),
  )
    .addPrimaryKeyConstraint('leaderboard_user_months_pk', ['user_id', 'month'])
    .execute();
  await db.schema
    .createIndex('leaderboard_user_months_month')
    .on('leaderboard_user_months')
    .columns(['month', 'user_id'])
    .execute();
  await withFamilies(
    db.schema.createTable('leaderboard_user_totals').addColumn('user_id', 'text', (c) => c.primaryKey()),
  ).execute();
}

/** Installs the SQLite row triggers (used by this migration, and by 0004's `down`). */
export async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  const ts = targets('sqlite');
  const body = (parts: string[]) => parts.join('\n  ');
  await sql
    .raw(
      `create trigger usage_rollup_leaderboard_insert after insert on usage_rollup begin
  ${body(ts.map((t) => sqliteUpsert(t, 'NEW', '')))}
end`,
    )
    .execute(db);
  // The common update (ingest moving a row's counts) keeps the key: one upsert of the difference
  // per period table. A row whose key changes (repairs) moves its amount from the old key to the new.
  const sameKey = 'new.user_id = old.user_id and new.hour_start = old.hour_start and new.model = old.model';
  await sql
    .raw(
      `create trigger usage_rollup_leaderboard_update after update of user_id, hour_start, model, billable on usage_rollup
  when ${sameKey} and new.billable <> old.billable begin
  ${body(ts.map((t) => sqliteUpsertAmount(t, 'NEW', '(NEW.billable - OLD.billable)')))}
end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger usage_rollup_leaderboard_rekey after update of user_id, hour_start, model on usage_rollup
  when not (${sameKey}) begin
  ${body(ts.map((t) => sqliteUpsert(t, 'OLD', '-')))}
  ${body(ts.map((t) => sqliteUpsert(t, 'NEW', '')))}
end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger usage_rollup_leaderboard_delete after delete on usage_rollup begin
  ${body(ts.map((t) => sqliteUpsert(t, 'OLD', '-')))}
end`,
    )
    .execute(db);
}

/** Installs the PostgreSQL statement triggers (used by this migration, and by 0004's `down`). */
export async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  const ts = targets('postgres');
  const fn = async (name: string, from: string) => {
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $fn$
begin
  ${ts.map((t) => pgUpsert(t, from)).join('\n  ')}
  return null;
end
$fn$`,
      )
      .execute(db);
  };
  await fn('usage_rollup_leaderboard_insert', '(select user_id, hour_start, model, billable from new_rows)');
  await fn(
    'usage_rollup_leaderboard_delete',
    '(select user_id, hour_start, model, -billable as billable from old_rows)',
  );
  await fn(
    'usage_rollup_leaderboard_update',
    '(select user_id, hour_start, model, billable from new_rows union all select user_id, hour_start, model, -billable from old_rows)',
  );
  await sql
    .raw(
      `create trigger usage_rollup_leaderboard_insert after insert on usage_rollup referencing new table as new_rows
    for each statement execute function usage_rollup_leaderboard_insert()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger usage_rollup_leaderboard_update after update on usage_rollup referencing new table as new_rows old table as old_rows
    for each statement execute function usage_rollup_leaderboard_update()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger usage_rollup_leaderboard_delete after delete on usage_rollup referencing old table as old_rows
    for each statement execute function usage_rollup_leaderboard_delete()`,
    )
    .execute(db);
}

/** Fills the (empty) aggregate tables from the rollup in bulk, one statement per table. */
async function fillFromRollup(db: Kysely<any>, dialect: DialectName): Promise<void> {
  for (const t of targets(dialect)) {
    const [g, c, o] = familyAmounts(dialect, 'r.model', 'r.billable');
    const keys = t.keyValues('r');
    await sql
      .raw(
        `insert into ${t.table} (${t.keys.join(', ')}, gpt, claude, other)
      select ${keys.join(', ')}, sum(${g}), sum(${c}), sum(${o}) from usage_rollup r group by ${keys.join(', ')}`,
      )
      .execute(db);
  }
}

/** Creates the aggregate tables, fills them from the existing rollup, and installs the triggers. */
export async function createLeaderboardAggregates(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await createTables(db);
  await fillFromRollup(db, dialect);
  if (dialect === 'sqlite') await createSqliteTriggers(db);
  else await createPostgresTriggers(db);
}

/**
 * Rebuilds the aggregates from the rollup (for data loaded with the triggers off, as
 * bench:leaderboard does). Callers make sure nothing writes the rollup meanwhile.
 */
export async function rebuildLeaderboardAggregates(db: Kysely<any>, dialect: DialectName): Promise<void> {
  for (const t of targets(dialect)) await sql.raw(`delete from ${t.table}`).execute(db);
  await fillFromRollup(db, dialect);
}

export async function dropLeaderboardAggregates(db: Kysely<any>, dialect: DialectName): Promise<void> {
  for (const op of ['insert', 'update', 'delete']) {
    await sql
      .raw(`drop trigger if exists usage_rollup_leaderboard_${op}${dialect === 'postgres' ? ' on usage_rollup' : ''}`)
      .execute(db);
    if (dialect === 'postgres') await sql.raw(`drop function if exists usage_rollup_leaderboard_${op}()`).execute(db);
  }
  for (const table of ['leaderboard_user_totals', 'leaderboard_user_months', 'leaderboard_user_weeks']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
