/** @fileoverview Password recovery tokens: one live link a user, each working once within its hour. */
import type { Queryable } from '../connect.js';

/** Stores a new recovery token for the user, replacing any older one (only the latest link works). */
export async function replaceRecoveryToken(
  db: Queryable,
  row: { token_hash: string; user_id: string; created_at: number; expires_at: number },
): Promise<void> {
  await db.deleteFrom('recovery_tokens').where('user_id', '=', row.user_id).execute();
  await db.insertInto('recovery_tokens').values(row).execute();
}

/** Marks the token used if it is unused and unexpired; its user when this call won, else undefined. */
export async function consumeRecoveryToken(db: Queryable, tokenHash: string, now: number): Promise<string | undefined> {
  const row = await db
    .updateTable('recovery_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', BigInt(now))
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Deletes the user's recovery tokens (a password changed otherwise makes an outstanding link moot). */
export async function deleteUserRecoveryTokens(db: Queryable, userId: string): Promise<void> {
  await db.deleteFrom('recovery_tokens').where('user_id', '=', userId).execute();
}

/** Deletes recovery tokens that expired before `nowMs` (used ones expire within their hour too). */
export async function deleteExpiredRecoveryTokens(db: Queryable, nowMs: number): Promise<number> {
  const result = await db.deleteFrom('recovery_tokens').where('expires_at', '<=', BigInt(nowMs)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
