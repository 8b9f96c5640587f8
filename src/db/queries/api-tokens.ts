/** @fileoverview Personal API tokens (`tt_pat_…`): create, count, list, delete, look up by hash, note use. */
import type { Queryable } from '../connect.js';

/** A user's token as the settings page lists it (never its hash). */
export interface ApiTokenListing {
  id: string;
  name: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

/** What a presented token stands for. */
export interface ApiTokenCredential {
  tokenId: string;
  userId: string;
  expiresAt: number | null;
}

const orNull = (v: bigint | null): number | null => (v === null ? null : Number(v));

export async function insertApiToken(
  db: Queryable,
  row: { id: string; user_id: string; name: string; token_hash: string; created_at: number; expires_at: number | null },
): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** How many tokens the user has (expired ones too: they are kept until revoked or crowded out). */
export async function countApiTokens(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<bigint | number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deletes the user's tokens expired at `now`; returns how many went. */
export async function deleteExpiredApiTokens(db: Queryable, userId: string, now: number): Promise<number> {
  const result = await db
    .deleteFrom('api_tokens')
    .where('user_id', '=', userId)
    .where('expires_at', '<=', BigInt(now))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The user's tokens, newest first (expired ones too, until revoked). */
export async function listApiTokens(db: Queryable, userId: string): Promise<ApiTokenListing[]> {
  const rows = await db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'created_at', 'expires_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: Number(r.created_at),
    expiresAt: orNull(r.expires_at),
    lastUsedAt: orNull(r.last_used_at),
  }));
}

/** Deletes one of the user's tokens; false when the user has no token with this id. */
export async function deleteApiToken(db: Queryable, userId: string, tokenId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('api_tokens')
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The token behind a hash, expired or not (the caller compares `expiresAt` with its clock). */
export async function findApiTokenByHash(db: Queryable, tokenHash: string): Promise<ApiTokenCredential | undefined> {
  // A disabled account's tokens are not found (like its device and share tokens).
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(['api_tokens.id', 'api_tokens.user_id', 'api_tokens.expires_at'])
    .where('api_tokens.token_hash', '=', tokenHash)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
  return row ? { tokenId: row.id, userId: row.user_id, expiresAt: orNull(row.expires_at) } : undefined;
}

/** Sets `last_used_at` unless it is younger than `minIntervalMs` (one write a minute a token at most). */
export async function touchApiToken(db: Queryable, tokenId: string, now: number, minIntervalMs: number): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: now })
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', BigInt(now - minIntervalMs))]))
    .execute();
}
