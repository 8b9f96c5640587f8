/**
 * @fileoverview Device onboarding: issuing device tokens directly, and the link-code flow
 * (a signed-in user creates a short-lived code; a CLI exchanges it, replay-safe by request_id).
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { lockUserDevices } from '../db/locks.js';
import {
  claimLinkCode,
  countLiveDevices,
  findLinkCode,
  insertDeviceWithToken,
  insertLinkCode,
} from '../db/queries/devices.js';
import { findUserById } from '../db/queries/users.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import { generateLinkCode, normalizeLinkCode } from '../domain/link-code.js';
import { Conflict, invalidField } from '../domain/errors.js';
import { DEVICE_TOKEN_PREFIX, generateToken, hashToken, hmac } from '../security/tokens.js';
import { emitDeviceEvent } from './webhook-events.js';

const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
const LINK_CODE = { in: 'body', field: 'link_code' } as const;

export interface IssuedDevice {
  deviceId: string;
  token: string;
  createdAt: number;
}

export interface DeviceDescription {
  deviceName: string | undefined;
  platform: string | undefined;
}

function describeDevice(d: DeviceDescription): { name: string; platform: string } {
  const name = d.deviceName?.trim() || 'Tokentally CLI';
  const platform = d.platform?.trim().toLowerCase() || 'unknown';
  return { name, platform };
}

export interface OnboardingOptions {
  linkCodeTtlMs: number;
  /** Live devices one user may have (MAX_DEVICES_PER_USER). */
  maxDevicesPerUser: number;
}

/** A device linked by a link code, and the account it joined (as the CLI names it). */
export interface LinkedDevice {
  token: string;
  deviceId: string;
  userId: string;
  email: string | null;
  displayName: string | null;
}

export class OnboardingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly tokenKey: string,
    private readonly options: OnboardingOptions,
  ) {}

  /** A conflict when the user already has the most live devices allowed. */
  private async checkDeviceRoom(db: Tx | Db['kysely'], userId: string): Promise<void> {
    if ((await countLiveDevices(db, userId)) < this.options.maxDevicesPerUser) return;
    throw new Conflict(
      `This account already has ${this.options.maxDevicesPerUser} devices, the most allowed; revoke one first.`,
    );
  }

  /** Adds a device in a transaction that first checks the user's device count (serialised per user on PostgreSQL). */
  private async addDevice(
    tx: Tx,
    device: { id: string; user_id: string; created_at: number } & DeviceDescription,
    tokenHash: string,
  ): Promise<void> {
    await lockUserDevices(this.db, tx, device.user_id);
    await this.checkDeviceRoom(tx, device.user_id);
    const { deviceName, platform, ...row } = device;
    const described = describeDevice({ deviceName, platform });
    await insertDeviceWithToken(tx, { ...row, ...described }, tokenHash);
    // Queued with the device itself (docs/webhooks.md): the event exists if and only if the device does.
    const event = { user_id: row.user_id, device_id: row.id, platform: described.platform };
    await emitDeviceEvent(tx, 'device.linked', event, row.created_at);
  }

  /** A new device with a fresh token for `userId` (who must exist). */
  async issueDeviceToken(userId: string, description: DeviceDescription): Promise<IssuedDevice> {
    const user = await findUserById(this.db.kysely, userId);
    if (!user) throw invalidField({ in: 'body', field: 'user_id' }, 'is not an existing user');
    const token = generateToken(DEVICE_TOKEN_PREFIX);
    const deviceId = randomUUID();
    const now = this.clock.now();
    await inTransaction(this.db, (tx) =>
      this.addDevice(tx, { id: deviceId, user_id: userId, created_at: now, ...description }, hashToken(token)),
    );
    return { deviceId, token, createdAt: now };
  }

  async createLinkCode(userId: string): Promise<{ code: string; expiresAt: number }> {
    // A code that could never be exchanged is refused now, not at the other machine.
    await this.checkDeviceRoom(this.db.kysely, userId);
    const code = generateLinkCode();
    const now = this.clock.now();
    const expiresAt = now + this.options.linkCodeTtlMs;
    const canonical = normalizeLinkCode(code);
    if (!canonical) throw new Error('generated link code does not normalise');
    await insertLinkCode(this.db.kysely, {
      code_hash: hashToken(canonical),
      user_id: userId,
      created_at: now,
      expires_at: expiresAt,
    });
    return { code, expiresAt };
  }

  /**
   * Exchanges a link code for a device token, with the account it joined (so the CLI can say whose
   * account it linked to). Unknown or expired → invalid; used by another request_id → conflict; the
   * same request_id again within 24 h → the same device and token (derived, never stored).
   */
  async exchange(linkCode: string, requestId: string, description: DeviceDescription): Promise<LinkedDevice> {
    const linked = await this.exchangeCode(linkCode, requestId, description);
    const user = await findUserById(this.db.kysely, linked.userId);
    return { ...linked, email: user?.email ?? null, displayName: user?.display_name ?? null };
  }

  private async exchangeCode(linkCode: string, requestId: string, description: DeviceDescription) {
    const canonical = normalizeLinkCode(linkCode);
    if (!canonical) throw invalidField(LINK_CODE, 'is not a valid link code');
    const codeHash = hashToken(canonical);
    const token = DEVICE_TOKEN_PREFIX + hmac(this.tokenKey, 'link-code-device-token', codeHash, requestId);
    const now = this.clock.now();

    const replayOrConflict = (row: {
      request_id: string | null;
      device_id: string | null;
      used_at: bigint | null;
      user_id: string;
    }) => {
      const withinWindow = row.used_at !== null && now - Number(row.used_at) <= REPLAY_WINDOW_MS;
      if (row.request_id === requestId && row.device_id && withinWindow) {
        return { token, deviceId: row.device_id, userId: row.user_id };
      }
      throw new Conflict('This link code has already been used. Create a new one in the dashboard.');
    };

    const row = await findLinkCode(this.db.kysely, codeHash);
    if (!row) throw invalidField(LINK_CODE, 'is unknown');
    if (row.used_at !== null) return replayOrConflict(row);
    if (Number(row.expires_at) <= now) throw invalidField(LINK_CODE, 'has expired; create a new one');

    const deviceId = randomUUID();
    const claimed = await inTransaction(this.db, async (tx) => {
      const won = await claimLinkCode(tx, codeHash, { requestId, deviceId, now });
      if (!won) return false;
      await this.addDevice(
        tx,
        { id: deviceId, user_id: row.user_id, created_at: now, ...description },
        hashToken(token),
      );
      return true;
    });
    if (claimed) return { token, deviceId, userId: row.user_id };
    const after = await findLinkCode(this.db.kysely, codeHash);
    if (!after) throw invalidField(LINK_CODE, 'is unknown');
    return replayOrConflict(after);
  }
}
