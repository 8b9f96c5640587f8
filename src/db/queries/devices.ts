/** @fileoverview Devices, device tokens, link codes and sync heartbeats. */
import type { Kysely } from 'kysely';
import type { Database, LinkCodeRow } from '../schema.js';

type Q = Kysely<Database>;

export async function insertDeviceWithToken(
  db: Q,
  device: { id: string; user_id: string; name: string; platform: string; created_at: number },
  tokenHash: string,
): Promise<void> {
  await db.insertInto('devices').values(device).execute();
  await db
    .insertInto('device_tokens')
    .values({ token_hash: tokenHash, device_id: device.id, user_id: device.user_id, created_at: device.created_at })
    .execute();
}

/** The live (non-revoked) device behind a token hash. */
export async function findActiveDeviceToken(db: Q, tokenHash: string): Promise<{ userId: string; deviceId: string } | undefined> {
  const row = await db
    .selectFrom('device_tokens as t')
    .innerJoin('devices as d', 'd.id', 't.device_id')
    .select(['t.user_id', 't.device_id'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('d.revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? { userId: row.user_id, deviceId: row.device_id } : undefined;
}

export async function findDevice(db: Q, deviceId: string) {
  return db.selectFrom('devices').selectAll().where('id', '=', deviceId).executeTakeFirst();
}

/** Records a sync heartbeat unless the last one is younger than `minIntervalMs`; returns the stored time. */
export async function recordSync(
  db: Q,
  deviceId: string,
  now: number,
  minIntervalMs: number,
): Promise<{ updated: boolean; lastSyncAt: number }> {
  const result = await db
    .updateTable('devices')
    .set({ last_sync_at: now, last_seen_at: now })
    .where('id', '=', deviceId)
    .where((eb) => eb.or([eb('last_sync_at', 'is', null), eb('last_sync_at', '<=', BigInt(now - minIntervalMs))]))
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return { updated: true, lastSyncAt: now };
  const row = await db.selectFrom('devices').select('last_sync_at').where('id', '=', deviceId).executeTakeFirst();
  return { updated: false, lastSyncAt: Number(row?.last_sync_at ?? now) };
}

export async function insertLinkCode(
  db: Q,
  row: { code_hash: string; user_id: string; created_at: number; expires_at: number },
): Promise<void> {
  await db.insertInto('link_codes').values(row).execute();
}

export async function findLinkCode(db: Q, codeHash: string): Promise<LinkCodeRow | undefined> {
  return db.selectFrom('link_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Claims an unused code for a request; true when this call claimed it. */
export async function claimLinkCode(
  db: Q,
  codeHash: string,
  claim: { requestId: string; deviceId: string; now: number },
): Promise<boolean> {
  const result = await db
    .updateTable('link_codes')
    .set({ used_at: claim.now, request_id: claim.requestId, device_id: claim.deviceId })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
