/**
 * @fileoverview `public_profiles` (migration 0024): a user's handle and public fields, and the
 * user behind a handle.
 */
import type { Queryable } from '../connect.js';

export interface ProfileSettingsRow {
  handle: string | null;
  fields: string;
}

export async function findProfileSettings(db: Queryable, userId: string): Promise<ProfileSettingsRow | undefined> {
  return db.selectFrom('public_profiles').select(['handle', 'fields']).where('user_id', '=', userId).executeTakeFirst();
}

/** The user whose handle this is (handles are stored lower-cased). */
export async function findUserIdByHandle(db: Queryable, handle: string): Promise<string | undefined> {
  const row = await db.selectFrom('public_profiles').select('user_id').where('handle', '=', handle).executeTakeFirst();
  return row?.user_id;
}

export async function saveProfileSettings(
  db: Queryable,
  userId: string,
  row: ProfileSettingsRow,
  now: number,
): Promise<void> {
  await db
    .insertInto('public_profiles')
    .values({ user_id: userId, handle: row.handle, fields: row.fields, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ handle: row.handle, fields: row.fields, updated_at: now }))
    .execute();
}
