/**
 * @fileoverview Migration 0005: `identity_revision`, one counter that moves whenever anything a
 * public leaderboard row shows about a user can change — a name or avatar, a user removed, public
 * visibility turned on or off. Leaderboard reads cache names and visibility per revision and read
 * the counter (one primary-key read) on every request, so a change shows on the next read in every
 * process, with no time-based staleness.
 *
 * Triggers bump it, so no write path (the sign-in API, sharing, the admin command line, a manual
 * SQL fix) can forget to. These tables change rarely; the counter is never on the ingest path.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

const BUMP = 'update identity_revision set revision = revision + 1 where id = 1';

async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create trigger users_identity_revision_update after update of display_name, avatar_url on users
    when old.display_name is not new.display_name or old.avatar_url is not new.avatar_url
    begin ${BUMP}; end`,
    )
    .execute(db);
  await sql.raw(`create trigger users_identity_revision_delete after delete on users begin ${BUMP}; end`).execute(db);
  for (const event of ['insert', 'update', 'delete']) {
    await sql
      .raw(`create trigger public_views_identity_revision_${event} after ${event} on public_views begin ${BUMP}; end`)
      .execute(db);
  }
}

async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create function bump_identity_revision() returns trigger language plpgsql as $fn$
begin
  ${BUMP};
  return null;
end
$fn$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger users_identity_revision_update after update of display_name, avatar_url on users for each row
    when (old.display_name is distinct from new.display_name or old.avatar_url is distinct from new.avatar_url)
    execute function bump_identity_revision()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger users_identity_revision_delete after delete on users
    for each statement execute function bump_identity_revision()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger public_views_identity_revision after insert or update or delete on public_views
    for each statement execute function bump_identity_revision()`,
    )
    .execute(db);
}

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('identity_revision')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('revision', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('identity_revision').values({ id: 1, revision: 0 }).execute();
      if (dialect === 'sqlite') await createSqliteTriggers(db);
      else await createPostgresTriggers(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      if (dialect === 'sqlite') {
        for (const t of [
          'users_identity_revision_update',
          'users_identity_revision_delete',
          'public_views_identity_revision_insert',
          'public_views_identity_revision_update',
          'public_views_identity_revision_delete',
        ]) {
          await sql.raw(`drop trigger if exists ${t}`).execute(db);
        }
      } else {
        await sql.raw('drop trigger if exists users_identity_revision_update on users').execute(db);
        await sql.raw('drop trigger if exists users_identity_revision_delete on users').execute(db);
        await sql.raw('drop trigger if exists public_views_identity_revision on public_views').execute(db);
        await sql.raw('drop function if exists bump_identity_revision()').execute(db);
      }
      await db.schema.dropTable('identity_revision').ifExists().execute();
    },
  };
}
