/** @fileoverview Users and their refresh tokens. */
import type { Queryable } from '../connect.js';
import type { NewUserRow, RefreshTokenRow, UserRow } from '../schema.js';

export async function insertUser(db: Queryable, user: NewUserRow): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether the user exists and is not disabled (their credentials are honoured). */
export async function userIdExists(db: Queryable, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserByExternalId(db: Queryable, externalId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

export async function updateUserProfile(
  db: Queryable,
  id: string,
  profile: { display_name?: string | null; avatar_url?: string | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...profile, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Stores a refresh token; `authenticated_at` is its session's sign-in instant (a rotated token: its parent's). */
export async function insertRefreshToken(
  db: Queryable,
  row: {
    token_hash: string;
    user_id: string;
    session_id: string;
    created_at: number;
    expires_at: number;
    authenticated_at?: number | bigint | null;
  },
): Promise<void> {
  await db.insertInto('refresh_tokens').values(row).execute();
}

/** When the session was signed in to; undefined for an unknown session or one older than migration 0015. */
export async function sessionAuthenticatedAt(db: Queryable, sessionId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('authenticated_at')
    .where('session_id', '=', sessionId)
    .where('authenticated_at', 'is not', null)
    .orderBy('authenticated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.authenticated_at == null ? undefined : Number(row.authenticated_at);
}

export async function findRefreshToken(db: Queryable, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks a refresh token used, only if it still was unused; true when this call won. */
export async function consumeRefreshToken(db: Queryable, tokenHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The session's user while it has a refresh token neither revoked nor expired and the user is not
 * disabled (its access tokens are honoured).
 */
export async function liveSessionOwner(db: Queryable, sessionId: string, now: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('refresh_tokens as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select('r.user_id')
    .where('r.session_id', '=', sessionId)
    .where('r.revoked_at', 'is', null)
    .where('r.expires_at', '>', BigInt(now))
    .where('u.disabled_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row?.user_id;
}

/** Revokes every session of the user but one (after a password change). */
export async function revokeOtherSessions(
  db: Queryable,
  userId: string,
  keepSessionId: string | undefined,
  now: number,
): Promise<void> {
  let query = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepSessionId !== undefined) query = query.where('session_id', '!=', keepSessionId);
  await query.execute();
}

export async function updatePasswordHash(db: Queryable, id: string, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute();
}

export async function revokeSession(db: Queryable, sessionId: string, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('session_id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeUserSessions(db: Queryable, userId: string, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Deletes refresh tokens that expired, and used or revoked ones older than `spentBeforeMs`. */
export async function deleteSpentRefreshTokens(db: Queryable, nowMs: number, spentBeforeMs: number): Promise<number> {
  const result = await db
    .deleteFrom('refresh_tokens')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', BigInt(nowMs)),
        eb('used_at', '<', BigInt(spentBeforeMs)),
        eb('revoked_at', '<', BigInt(spentBeforeMs)),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
