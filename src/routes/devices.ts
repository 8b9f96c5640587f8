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
} from '../schemas/devices.js';
import type { ChannelService } from '../services/channels.js';
import type { DeviceService } from '../services/devices.js';
import { operation } from './operation.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function deviceWire(d: DeviceListing, channels: DeviceEntry['channels']): DeviceEntry {
  return {
    device_id: d.id,
    name: d.name,
    platform: d.platform,
    linked_at: new Date(d.createdAt).toISOString(),
    last_sync_at: iso(d.lastSyncAt),
    last_upload_at: iso(d.lastUploadAt),
    revoked_at: iso(d.revokedAt),
    channels,
  };
}

export function registerDeviceRoutes(
  app: App,
  deps: { devices: DeviceService; channels: Pick<ChannelService, 'ofDevices'> },
): void {
  const { devices, channels } = deps;
  const one = async (d: DeviceListing) => deviceWire(d, (await channels.ofDevices([d.id])).get(d.id) ?? []);

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
    async (request) => {
      const list = await devices.list(principalOf(request, 'user').userId, request.query.include_revoked === '1');
      const bySource = await channels.ofDevices(list.map((d) => d.id));
      return { devices: list.map((d) => deviceWire(d, bySource.get(d.id) ?? [])) };
    },
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
      device: await one(
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
      device: await one(await devices.revoke(principalOf(request, 'user').userId, request.body.device_id)),
    }),
  );
}
