/** @fileoverview Sign-up invites (`invites`, migration 0020), found by the SHA-256 of their token. */
import type { Queryable } from '../connect.js';
import type { InviteRow } from '../schema.js';

export async function insertInvite(
  db: Queryable,
  row: {
    id: string;
    token_hash: string;
    email: string | null;
    max_uses: number;
    created_by: string | null;
    created_at: number;
    expires_at: number;
  },
): Promise<void> {
  await db
    .insertInto('invites')
    .values({ ...row, uses: 0 })
    .execute();
}

export async function findInviteByHash(db: Queryable, tokenHash: string): Promise<InviteRow | undefined> {
  return db.selectFrom('invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Uses the invite once, only while it is live (not revoked, not expired, uses left): true when this
 * call took a use. The check and the count are one statement, so concurrent sign-ups cannot take
 * more uses than it has (PostgreSQL re-checks the row a concurrent update changed; SQLite writes one
 * at a time).
 */
export async function useInvite(db: Queryable, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set((eb) => ({ uses: eb('uses', '+', 1n) }))
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', BigInt(now))
    .whereRef('uses', '<', 'max_uses')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The newest invites first. */
export async function listInvites(db: Queryable, limit: number): Promise<InviteRow[]> {
  return db.selectFrom('invites').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

export async function findInvite(db: Queryable, id: string): Promise<InviteRow | undefined> {
  return db.selectFrom('invites').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Revokes a live invite; true when this call revoked it. */
export async function revokeInvite(db: Queryable, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
