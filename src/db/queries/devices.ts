/** @fileoverview Devices, device tokens, link codes and sync heartbeats. */
import type { Queryable } from '../connect.js';
import type { LinkCodeRow } from '../schema.js';

export async function insertDeviceWithToken(
  db: Queryable,
  device: { id: string; user_id: string; name: string; platform: string; created_at: number },
  tokenHash: string,
): Promise<void> {
  await db.insertInto('devices').values(device).execute();
  await db
    .insertInto('device_tokens')
    .values({ token_hash: tokenHash, device_id: device.id, user_id: device.user_id, created_at: device.created_at })
    .execute();
}

/** How many live (not revoked) devices a user has. */
export async function countLiveDevices(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<bigint | number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The live (non-revoked) device behind a token hash, while its user is not disabled. */
export async function findActiveDeviceToken(
  db: Queryable,
  tokenHash: string,
): Promise<{ userId: string; deviceId: string } | undefined> {
  const row = await db
    .selectFrom('device_tokens as t')
    .innerJoin('devices as d', 'd.id', 't.device_id')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.user_id', 't.device_id'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('d.revoked_at', 'is', null)
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst();
  return row ? { userId: row.user_id, deviceId: row.device_id } : undefined;
}

export async function findDevice(db: Queryable, deviceId: string) {
  return db.selectFrom('devices').selectAll().where('id', '=', deviceId).executeTakeFirst();
}

/** How often a ping inside the sync interval may still move the device's `last_seen_at`. */
const SEEN_EVERY_MS = 60_000;

/**
 * Records a sync heartbeat unless the last one is younger than `minIntervalMs`; returns the stored
 * time. A ping inside the interval still moves `last_seen_at` (at most once a minute, so a chatty
 * client costs one small write a minute): the devices page shows the latest contact, while the
 * interface's answer keeps the stored `last_sync_at` (docs/interface.md).
 */
export async function recordSync(
  db: Queryable,
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
  await db
    .updateTable('devices')
    .set({ last_seen_at: now })
    .where('id', '=', deviceId)
    .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<=', BigInt(now - SEEN_EVERY_MS))]))
    .execute();
  const row = await db.selectFrom('devices').select('last_sync_at').where('id', '=', deviceId).executeTakeFirst();
  return { updated: false, lastSyncAt: Number(row?.last_sync_at ?? now) };
}

export async function insertLinkCode(
  db: Queryable,
  row: { code_hash: string; user_id: string; created_at: number; expires_at: number },
): Promise<void> {
  await db.insertInto('link_codes').values(row).execute();
}

export async function findLinkCode(db: Queryable, codeHash: string): Promise<LinkCodeRow | undefined> {
  return db.selectFrom('link_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Claims an unused code for a request; true when this call claimed it. */
export async function claimLinkCode(
  db: Queryable,
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

/** A user's device as the devices page lists it. */
export interface DeviceListing {
  id: string;
  name: string;
  platform: string;
  createdAt: number;
  lastSyncAt: number | null;
  lastUploadAt: number | null;
  revokedAt: number | null;
}

const orNull = (v: bigint | number | null): number | null => (v === null ? null : Number(v));
const latest = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);

/**
 * The user's devices, newest first. `lastUploadAt` is the latest upload's time, kept on the device
 * by the ingest writers; `lastSyncAt` is the latest contact, upload or ping (a ping inside the
 * sync interval moves only `last_seen_at`, read here too).
 */
export async function listUserDevices(
  db: Queryable,
  userId: string,
  includeRevoked: boolean,
): Promise<DeviceListing[]> {
  let query = db
    .selectFrom('devices as d')
    .select([
      'd.id',
      'd.name',
      'd.platform',
      'd.created_at',
      'd.last_sync_at',
      'd.last_seen_at',
      'd.last_upload_at',
      'd.revoked_at',
    ])
    .where('d.user_id', '=', userId);
  if (!includeRevoked) query = query.where('d.revoked_at', 'is', null);
  const rows = await query.orderBy('d.created_at', 'desc').orderBy('d.id').execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    platform: r.platform,
    createdAt: Number(r.created_at),
    lastSyncAt: latest(orNull(r.last_sync_at), orNull(r.last_seen_at)),
    lastUploadAt: orNull(r.last_upload_at),
    revokedAt: orNull(r.revoked_at),
  }));
}

/** Renames one of the user's devices; false when the user has no such device. */
export async function renameUserDevice(
  db: Queryable,
  userId: string,
  deviceId: string,
  name: string,
): Promise<boolean> {
  const result = await db
    .updateTable('devices')
    .set({ name })
    .where('id', '=', deviceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Revokes a device and every token of it (uploads stay). Idempotent: an already revoked device
 * keeps its first revocation time. Undefined when the user has no such device.
 */
export async function revokeUserDevice(
  db: Queryable,
  userId: string,
  deviceId: string,
  now: number,
): Promise<{ revokedAt: number } | undefined> {
  const device = await db
    .selectFrom('devices')
    .select('revoked_at')
    .where('id', '=', deviceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!device) return undefined;
  await db
    .updateTable('device_tokens')
    .set({ revoked_at: now })
    .where('device_id', '=', deviceId)
    .where('revoked_at', 'is', null)
    .execute();
  if (device.revoked_at !== null) return { revokedAt: Number(device.revoked_at) };
  await db.updateTable('devices').set({ revoked_at: now }).where('id', '=', deviceId).execute();
  return { revokedAt: now };
}

/** The owner of a device (any state), for the admin command line. */
export async function findDeviceOwner(db: Queryable, deviceId: string): Promise<string | undefined> {
  const row = await db.selectFrom('devices').select('user_id').where('id', '=', deviceId).executeTakeFirst();
  return row?.user_id;
}

/** Deletes link codes that expired before the cutoff (a used one is kept while its replay window lasts). */
export async function deleteLinkCodesExpiredBefore(db: Queryable, cutoffMs: number): Promise<number> {
  const result = await db.deleteFrom('link_codes').where('expires_at', '<', BigInt(cutoffMs)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
