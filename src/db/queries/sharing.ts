/** @fileoverview Public visibility rows and the share-token lookup. */
import type { Queryable } from '../connect.js';

export interface PublicViewRow {
  userId: string;
  enabled: boolean;
  tokenHash: string | null;
  tokenNonce: string | null;
  updatedAt: number;
}

export async function findPublicView(db: Queryable, userId: string): Promise<PublicViewRow | undefined> {
  const row = await db.selectFrom('public_views').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  return {
    userId: row.user_id,
    enabled: row.revoked_at === null && row.token_hash !== null,
    tokenHash: row.token_hash,
    tokenNonce: row.token_nonce,
    updatedAt: Number(row.updated_at),
  };
}

/** Turns visibility on with a fresh token (its hash and the nonce it is derived from). */
export async function enablePublicView(
  db: Queryable,
  userId: string,
  token: { hash: string; nonce: string },
  now: number,
): Promise<void> {
  await db
    .insertInto('public_views')
    .values({
      user_id: userId,
      token_hash: token.hash,
      token_nonce: token.nonce,
      created_at: now,
      updated_at: now,
      revoked_at: null,
    })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ token_hash: token.hash, token_nonce: token.nonce, updated_at: now, revoked_at: null }),
    )
    .execute();
}

/** Turns visibility off: the token hash is dropped, so the token can never work again. */
export async function revokePublicView(db: Queryable, userId: string, now: number): Promise<void> {
  await db
    .updateTable('public_views')
    .set({ token_hash: null, token_nonce: null, revoked_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The user behind a live share token. */
export async function findUserByShareTokenHash(
  db: Queryable,
  tokenHash: string,
): Promise<{ userId: string } | undefined> {
  const row = await db
    .selectFrom('public_views as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select('p.user_id')
    .where('p.token_hash', '=', tokenHash)
    .where('p.revoked_at', 'is', null)
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst();
  return row ? { userId: row.user_id } : undefined;
}
