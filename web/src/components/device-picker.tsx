/** @fileoverview The overview's device filter: all devices, or one (its usage only); shown when there are two or more. */
import { useId } from 'react';
import type { Answer } from '../api.js';

export type DeviceChoice = Pick<Answer<'svc-devices'>['devices'][number], 'device_id' | 'name' | 'revoked_at'>;

export function DevicePicker({
  devices,
  device,
  onDevice,
}: {
  devices: DeviceChoice[];
  device: string | null;
  onDevice: (id: string | null) => void;
}) {
  const id = useId();
  // A device named in the address but no longer listed (revoked since) is still offered, by its id.
  const known = device === null || devices.some((d) => d.device_id === device);
  if (devices.length < 2 && known && device === null) return null;
  return (
    <div className="device-picker">
      <label htmlFor={id} className="sr-only">
        Device
      </label>
      <select id={id} value={device ?? ''} onChange={(e) => onDevice(e.target.value === '' ? null : e.target.value)}>
        <option value="">All devices</option>
        {devices.map((d) => (
          <option key={d.device_id} value={d.device_id}>
            {d.name}
            {d.revoked_at ? ' (revoked)' : ''}
          </option>
        ))}
        {!known && device !== null && <option value={device}>Device {device.slice(0, 8)}</option>}
      </select>
    </div>
  );
}
