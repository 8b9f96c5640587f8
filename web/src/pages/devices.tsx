/** @fileoverview Devices: link a new machine (live code, copyable commands, notices the first upload), list, rename, revoke. */
import { useEffect, useEffectEvent, useState } from 'react';
import { call, type Answer } from '../api.js';
import { Card, CodeBlock, ErrorNote, Skeleton } from '../components/common.js';
import { countdown, humanInstant, relativeTime, storageShare } from '../lib/format.js';
import { browserZone, usePrefs } from '../prefs.js';
import { useLoad } from '../use-api.js';
import { useNow } from '../use-now.js';
import { DeviceUsage } from './device-usage.js';
import { installCommands } from './get-started.js';
import { TelemetrySetupPanel } from './telemetry-setup.js';

/** A device as listDevices gives it; `channels`: which channel each source arrives through, `cli` or `otlp`. */
export type Device = Answer<'svc-devices'>['devices'][number];

function LinkCodePanel({ knownDevices, onLinked }: { knownDevices: Device[] | undefined; onLinked: () => void }) {
  const [code, setCode] = useState<Answer<'svc-link-code-init', 'post'> | null>(null);
  const [error, setError] = useState<string>();
  const [baseline, setBaseline] = useState<Map<string, string | null>>();
  const now = useNow(1000);
  const create = async () => {
    setError(undefined);
    try {
      setCode(await call<Answer<'svc-link-code-init', 'post'>>('svc-link-code-init', { method: 'POST' }));
      setBaseline(new Map((knownDevices ?? []).map((d) => [d.device_id, d.last_upload_at])));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const left = code ? Date.parse(code.expires_at) - now : 0;
  // Renewed on expiry.
  const renew = useEffectEvent(() => void create());
  useEffect(() => {
    if (!code) return;
    const id = setTimeout(renew, Math.max(0, Date.parse(code.expires_at) - Date.now()));
    return () => clearTimeout(id);
  }, [code]);
  // Watch for the new device: listed as soon as it links, then its first upload.
  const [linked, setLinked] = useState<Device>();
  const [arrived, setArrived] = useState<Device>();
  useEffect(() => {
    if ((!code && !linked) || !baseline || arrived) return;
    const id = setInterval(async () => {
      try {
        const { devices } = await call<Answer<'svc-devices'>>('svc-devices');
        const fresh = devices.find((d) => !baseline.has(d.device_id));
        if (fresh && !linked) {
          setLinked(fresh);
          setCode(null);
          onLinked();
        }
        if (fresh && fresh.last_upload_at !== null) {
          setArrived(fresh);
          onLinked();
        }
      } catch {
        /* the next poll tries again */
      }
    }, 3000);
    return () => clearInterval(id);
  }, [code, linked, baseline, arrived, onLinked]);

  return (
    <Card id="link" title="Link a machine">
      {arrived ? (
        <div className="note note-ok" role="status">
          <strong>{arrived.name}</strong> is linked and its first upload has arrived. <a href="/">See your usage</a>
        </div>
      ) : linked ? (
        <div className="note note-ok" role="status">
          <span>
            <strong>{linked.name}</strong> is linked. <span className="pulse" aria-hidden="true" /> Waiting for its
            first upload (<code>tokentally sync</code>)… this page updates by itself.
          </span>
        </div>
      ) : code ? (
        <div className="link-code">
          <div className="code-line">
            <span className="big-code" data-testid="link-code">
              {code.link_code}
            </span>
            <span className="countdown" aria-live="off">
              expires in {countdown(left)}
            </span>
          </div>
          <p>On the machine to link, run:</p>
          <CodeBlock
            code={installCommands(code.link_code)}
            label="Commands to install the client and link with this code"
          />
          <p className="muted small" role="status">
            <span className="pulse" aria-hidden="true" /> Waiting for the first upload… this page updates by itself.
          </p>
        </div>
      ) : (
        <div>
          <p>
            The quickest way: run <code>tokentally link --server {location.origin}</code> on the machine; it opens this
            site to approve. Then <code>tokentally hooks install</code> makes it sync by itself after each agent
            session. On a machine without a browser, create a one-time code:
          </p>
          <button type="button" className="btn btn-primary" onClick={() => void create()}>
            Create a link code
          </button>
        </div>
      )}
      {error && <ErrorNote message={error} retry={() => void create()} />}
    </Card>
  );
}

/** A past event in words: a clock a little ahead of this one never makes it "in 9 seconds". */
const pastTime = (iso: string | null, now: number) =>
  iso === null ? 'never' : relativeTime(new Date(Math.min(Date.parse(iso), now)).toISOString(), now);

/**
 * Whether the device seems to sync by itself. The server keeps only its latest sync, not whether
 * hooks are installed: synced within a day reads as active, otherwise the way to make it automatic.
 */
function syncMode(device: Device, now: number): string {
  if (!device.last_sync_at) return 'not yet synced';
  return now - Date.parse(device.last_sync_at) < 86_400_000 ? 'active today' : 'idle: run tokentally hooks install';
}

function DeviceRow({
  device,
  zone,
  now,
  version,
  onChanged,
}: {
  device: Device;
  zone: string;
  now: number;
  /** Moves when the list is loaded again (a device linked or uploaded): its usage is read again too. */
  version: number;
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(device.name);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const act = async (fn: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await fn();
      setEditing(false);
      setConfirming(false);
      onChanged();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <li className="device" data-testid="device-row">
      <div className="device-main">
        <span
          className={`platform-dot ${device.last_sync_at && now - Date.parse(device.last_sync_at) < 86_400_000 ? 'live' : ''}`}
          aria-hidden="true"
        />
        {editing ? (
          <form
            className="inline-form"
            onSubmit={(e) => (
              e.preventDefault(),
              void act(() => call('svc-device-rename', { method: 'POST', body: { device_id: device.device_id, name } }))
            )}
          >
            <label>
              <span className="sr-only">New name for {device.name}</span>
              <input value={name} onChange={(e) => setName(e.target.value)} maxLength={128} required autoFocus />
            </label>
            <button className="btn btn-small btn-primary" type="submit">
              Save
            </button>
            <button className="btn btn-small btn-ghost" type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <div>
            <div className="device-name">{device.name}</div>
            <div className="muted small">
              {device.platform} · linked {humanInstant(device.linked_at, zone)}
            </div>
          </div>
        )}
      </div>
      <dl className="device-facts">
        <div>
          <dt>Last sync</dt>
          <dd title={humanInstant(device.last_sync_at, zone)}>{pastTime(device.last_sync_at, now)}</dd>
        </div>
        <div>
          <dt>Last upload</dt>
          <dd title={humanInstant(device.last_upload_at, zone)}>{pastTime(device.last_upload_at, now)}</dd>
        </div>
        <DeviceUsage deviceId={device.device_id} zone={zone} version={version} />
        <div>
          <dt>Sync</dt>
          <dd data-testid="sync-mode">{syncMode(device, now)}</dd>
        </div>
        {device.channels && device.channels.length > 0 && (
          <div className="wide">
            <dt>Sources</dt>
            <dd data-testid="device-channels">
              {device.channels
                .map((c) => `${c.source} (${c.channel === 'otlp' ? 'agent telemetry' : 'CLI'})`)
                .join(', ')}
            </dd>
          </div>
        )}
      </dl>
      <div className="device-actions">
        {confirming ? (
          <>
            <span className="small">Revoke {device.name}? Its uploads stay.</span>
            <button
              type="button"
              className="btn btn-small btn-danger"
              onClick={() =>
                void act(() => call('svc-device-revoke', { method: 'POST', body: { device_id: device.device_id } }))
              }
            >
              Revoke
            </button>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          !editing && (
            <>
              <button
                type="button"
                className="btn btn-small"
                onClick={() => (setName(device.name), setEditing(true))}
                aria-label={`Rename ${device.name}`}
              >
                Rename
              </button>
              <button
                type="button"
                className="btn btn-small btn-ghost-danger"
                onClick={() => setConfirming(true)}
                aria-label={`Revoke ${device.name}`}
              >
                Revoke
              </button>
            </>
          )
        )}
      </div>
      {error && <ErrorNote message={error} />}
    </li>
  );
}

/** The share of the account's stored-bucket bound in use, and what to do when it is nearly full. */
function StorageNote({ version }: { version: number }) {
  const status = useLoad(`storage-${version}`, (signal) =>
    call<Answer<'svc-user-status'>>('svc-user-status', { signal }),
  );
  const storage = status.data?.storage;
  if (!storage) return null;
  const full = storage.stored_buckets >= storage.max_stored_buckets * 0.9;
  return (
    <div className={full ? 'note note-warn' : 'muted small'} data-testid="storage-share">
      Storage: {storageShare(storage.stored_buckets, storage.max_stored_buckets)}
      {full &&
        ' — uploads of new usage are refused once it is full, revoked devices’ buckets count too. Export your usage and ask the server’s administrator to raise the limit or remove old data.'}
    </div>
  );
}

export function Devices() {
  const prefs = usePrefs();
  const zone = prefs.zone ?? browserZone();
  const [version, setVersion] = useState(0);
  const list = useLoad(`devices-${version}`, (signal) => call<Answer<'svc-devices'>>('svc-devices', { signal }));
  const now = useNow(30_000);
  const refresh = () => setVersion((v) => v + 1);
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Devices</h1>
          <p className="muted">
            The machines that upload your usage. Revoke a lost one: its token stops working at once.
          </p>
        </div>
      </div>
      <LinkCodePanel knownDevices={list.data?.devices} onLinked={refresh} />
      <TelemetrySetupPanel onCreated={refresh} />
      <Card id="device-list" title="Linked machines">
        {list.error && <ErrorNote message={list.error} retry={list.retry} />}
        {!list.data && !list.error && <Skeleton height={120} />}
        {list.data && list.data.devices.length === 0 && (
          <p className="muted">No machine is linked yet. Link one above.</p>
        )}
        {list.data && list.data.devices.length > 0 && (
          <ul className="device-list">
            {list.data.devices.map((d) => (
              <DeviceRow key={d.device_id} device={d} zone={zone} now={now} version={version} onChanged={refresh} />
            ))}
          </ul>
        )}
        <StorageNote version={version} />
      </Card>
    </div>
  );
}
