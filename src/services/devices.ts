/**
 * @fileoverview A user's devices: list, rename, revoke (docs/devices.md). Revoking marks the device
 * and its tokens revoked (its uploads stay) and tells `onRevoked`, which drops the token from the
 * credential cache of this process and of its peers, so the next request with it gets 401.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import {
  listUserDevices,
  recordSync,
  renameUserDevice,
  revokeUserDevice,
  type DeviceListing,
} from '../db/queries/devices.js';
import { inTransaction } from '../db/transaction.js';
import { emitDeviceEvent } from './webhook-events.js';
import { invalidField, NotFound } from '../domain/errors.js';

const NO_SUCH_DEVICE = 'You have no device with this id.';

export class DeviceService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly onRevoked: (deviceId: string) => void,
  ) {}

  /** A device's sync heartbeat, recorded at most once per `minIntervalMs` (recordSyncPing). */
  recordSyncPing(deviceId: string, minIntervalMs: number): Promise<{ updated: boolean; lastSyncAt: number }> {
    return recordSync(this.db.kysely, deviceId, this.clock.now(), minIntervalMs);
  }

  list(userId: string, includeRevoked: boolean): Promise<DeviceListing[]> {
    return listUserDevices(this.db.kysely, userId, includeRevoked);
  }

  /** Renames a device of the user (a revoked one too: its name stays in the list of revoked devices). */
  async rename(userId: string, deviceId: string, rawName: string): Promise<DeviceListing> {
    const name = rawName.trim();
    if (name === '') throw invalidField({ in: 'body', field: 'name' }, 'must not be empty');
    const renamed = await inTransaction(this.db, (tx) => renameUserDevice(tx, userId, deviceId, name));
    if (!renamed) throw new NotFound(NO_SUCH_DEVICE);
    return this.one(userId, deviceId);
  }

  async revoke(userId: string, deviceId: string): Promise<DeviceListing> {
    const now = this.clock.now();
    const revoked = await inTransaction(this.db, async (tx) => {
      const done = await revokeUserDevice(tx, userId, deviceId, now);
      if (done?.revokedAt === now)
        await emitDeviceEvent(tx, 'device.revoked', { user_id: userId, device_id: deviceId, platform: null }, now);
      return done !== undefined;
    });
    if (!revoked) throw new NotFound(NO_SUCH_DEVICE);
    this.onRevoked(deviceId);
    return this.one(userId, deviceId);
  }

  private async one(userId: string, deviceId: string): Promise<DeviceListing> {
    const found = (await listUserDevices(this.db.kysely, userId, true)).find((d) => d.id === deviceId);
    if (!found) throw new NotFound(NO_SUCH_DEVICE);
    return found;
  }
}
