/** @fileoverview A user's devices, beyond the interface: listDevices, renameDevice, revokeDevice (docs/devices.md). */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from './common.js';

const NullableDateTime = Type.Union([DateTime, Type.Null()]);

export const DeviceEntry = Type.Object({
  device_id: Uuid,
  name: Type.String(),
  platform: Type.String(),
  linked_at: DateTime,
  last_sync_at: NullableDateTime,
  last_upload_at: NullableDateTime,
  revoked_at: NullableDateTime,
  /** Which channel each source of the device arrives through: `cli` (svc-ingest) or `otlp` (docs/otlp.md). */
  channels: Type.Array(Type.Object({ source: Type.String(), channel: Type.String() }), { maxItems: 64 }),
});
export type DeviceEntry = Static<typeof DeviceEntry>;

export const DeviceListQuery = Type.Object({
  include_revoked: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
});
export type DeviceListQuery = Static<typeof DeviceListQuery>;

export const DeviceListResponse = Type.Object({ devices: Type.Array(DeviceEntry) });

export const DeviceRenameRequest = Type.Object(
  { device_id: Uuid, name: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
export type DeviceRenameRequest = Static<typeof DeviceRenameRequest>;

export const DeviceRevokeRequest = Type.Object({ device_id: Uuid }, { additionalProperties: false });
export type DeviceRevokeRequest = Static<typeof DeviceRevokeRequest>;

export const DeviceResponse = Type.Object({ device: DeviceEntry });
