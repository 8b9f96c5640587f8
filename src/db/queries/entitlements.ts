/**
 * @fileoverview Pro entitlements (granted from the admin command line). getUserStatus reads them
 * through {@link listActiveEntitlements}.
 */
import type { Queryable } from '../connect.js';

export interface Entitlement {
  id: string;
  userId: string;
  source: string;
  grantedAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

export async function insertEntitlement(
  db: Queryable,
  e: { id: string; userId: string; source: string; grantedAt: number; expiresAt: number | null },
): Promise<void> {
  await db
    .insertInto('entitlements')
    .values({
      id: e.id,
      user_id: e.userId,
      source: e.source,
      granted_at: e.grantedAt,
      expires_at: e.expiresAt,
      revoked_at: null,
    })
    .execute();
}

/** Revokes every live entitlement of a user; returns how many. */
export async function revokeEntitlements(db: Queryable, userId: string, nowMs: number): Promise<number> {
  const result = await db
    .updateTable('entitlements')
    .set({ revoked_at: nowMs })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Entitlements in force at `nowMs`: granted, not revoked, not expired; latest expiry first (null = no end). */
export async function listActiveEntitlements(db: Queryable, userId: string, nowMs: number): Promise<Entitlement[]> {
  const now = BigInt(nowMs);
  const rows = await db
    .selectFrom('entitlements')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('granted_at', '<=', now)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
  const list = rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    source: r.source,
    grantedAt: Number(r.granted_at),
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    revokedAt: null,
  }));
  return list.sort((a, b) => (a.expiresAt === null ? -1 : b.expiresAt === null ? 1 : b.expiresAt - a.expiresAt));
}
