/** @fileoverview listDevices, renameDevice, revokeDevice: a signed-in user's own devices (docs/devices.md). */
import type { App } from '../app-types.js';
import { principalOf } from '../http/access.js';
import type { DeviceListing } from '../db/queries/devices.js';
import { responses } from '../schemas/common.js';
import {
  DeviceListQuery,
  DeviceListResponse,
  DeviceRenameRequest,
  DeviceResponse,
  DeviceRevokeRequest,
  type DeviceEntry,
} from '../schemas/device-management.js';
import type { DeviceService } from '../services/devices.js';
import { operation } from './operation.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function deviceWire(d: DeviceListing): DeviceEntry {
  return {
    device_id: d.id,
    name: d.name,
    platform: d.platform,
    linked_at: new Date(d.createdAt).toISOString(),
    last_sync_at: iso(d.lastSyncAt),
    last_upload_at: iso(d.lastUploadAt),
    revoked_at: iso(d.revokedAt),
  };
}

export function registerDeviceManagementRoutes(app: App, deps: { devices: DeviceService }): void {
  const { devices } = deps;

  app.get(
    '/functions/svc-devices',
    operation(
      {
        operationId: 'listDevices',
        summary: "List the caller's devices",
        description:
          'Newest first; revoked devices only with include_revoked=1. last_upload_at is the time of the latest upload.',
        tags: ['devices'],
        access: { roles: ['user'] },
      },
      { querystring: DeviceListQuery, response: responses(DeviceListResponse, 400, 401, 403) },
    ),
    async (request) => ({
      devices: (await devices.list(principalOf(request, 'user').userId, request.query.include_revoked === '1')).map(
        deviceWire,
      ),
    }),
  );

  app.post(
    '/functions/svc-device-rename',
    operation(
      {
        operationId: 'renameDevice',
        summary: "Rename one of the caller's devices",
        tags: ['devices'],
        access: { roles: ['user'] },
      },
      { body: DeviceRenameRequest, response: responses(DeviceResponse, 400, 401, 403, 404, 415) },
    ),
    async (request) => ({
      device: deviceWire(
        await devices.rename(principalOf(request, 'user').userId, request.body.device_id, request.body.name),
      ),
    }),
  );

  app.post(
    '/functions/svc-device-revoke',
    operation(
      {
        operationId: 'revokeDevice',
        summary: "Revoke one of the caller's devices",
        description:
          'Its token is refused (401) from the next request on; its uploads stay. Revoking again changes nothing.',
        tags: ['devices'],
        access: { roles: ['user'] },
      },
      { body: DeviceRevokeRequest, response: responses(DeviceResponse, 400, 401, 403, 404, 415) },
    ),
    async (request) => ({
      device: deviceWire(await devices.revoke(principalOf(request, 'user').userId, request.body.device_id)),
    }),
  );
}
