import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtAppContext, runAdminCommand } from '../../src/admin/commands.js';
import type { PeerMessage, Peers } from '../../src/process/peers.js';
import { bearer, ingest, issueDevice, signIn, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, T0, TEST_SECRETS, type TestApp } from '../helpers/app.js';

type Device = {
  device_id: string;
  name: string;
  platform: string;
  linked_at: string;
  last_sync_at: string | null;
  last_upload_at: string | null;
  revoked_at: string | null;
};

const bucket = (tokens: number) => [
  { hour_start: '2026-11-01T10:00:00Z', source: 'codex', model: 'gpt-5', total_tokens: tokens, input_tokens: tokens },
];

describe(`devices (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  beforeEach(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterEach(async () => t.close());

  const list = async (who: TestUser, query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/functions/svc-devices${query}`,
      headers: bearer(who.accessToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ devices: Device[] }>().devices;
  };
  const post = (who: TestUser, op: 'rename' | 'revoke', payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/functions/svc-device-${op}`, headers: bearer(who.accessToken), payload });
  const summaryTotal = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/functions/svc-usage-summary?from=2026-11-01&to=2026-11-01&tz=UTC',
        headers: bearer(user.accessToken),
      })
    ).json().totals.total_tokens as string;

  it("lists only the caller's devices, newest first, with linked, last sync and last upload", async () => {
    const laptop = await issueDevice(t, user, 'laptop');
    t.clock.advance(60_000);
    const desktop = await issueDevice(t, user, 'desktop');
    await issueDevice(t, await signUp(t), 'someone else');
    t.clock.advance(60_000);
    expect((await ingest(t, laptop.token, bucket(5))).statusCode).toBe(200);
    const devices = await list(user);
    expect(devices.map((d) => d.name)).toEqual(['desktop', 'laptop']);
    expect(devices[1]).toEqual({
      device_id: laptop.deviceId,
      name: 'laptop',
      platform: 'linux',
      linked_at: new Date(T0).toISOString(),
      last_sync_at: new Date(T0 + 120_000).toISOString(),
      last_upload_at: new Date(T0 + 120_000).toISOString(),
      revoked_at: null,
      channels: [{ source: 'codex', channel: 'cli' }],
    });
    expect(devices[0]).toMatchObject({ device_id: desktop.deviceId, last_sync_at: null, last_upload_at: null });
  });

  it('a sync ping inside the 30-minute interval still moves the listed last sync, not the interface answer', async () => {
    const laptop = await issueDevice(t, user, 'laptop');
    const ping = async () =>
      (await t.app.inject({ method: 'POST', url: '/functions/svc-sync-ping', headers: bearer(laptop.token) })).json<{
        updated: boolean;
        last_sync_at: string;
      }>();
    expect(await ping()).toMatchObject({ updated: true, last_sync_at: new Date(T0).toISOString() });
    t.clock.advance(10 * 60_000);
    expect(await ping()).toMatchObject({ updated: false, last_sync_at: new Date(T0).toISOString() });
    expect((await list(user))[0]?.last_sync_at).toBe(new Date(T0 + 10 * 60_000).toISOString());
    // Within a minute of the last recorded contact nothing is written.
    t.clock.advance(30_000);
    await ping();
    expect((await list(user))[0]?.last_sync_at).toBe(new Date(T0 + 10 * 60_000).toISOString());
    t.clock.advance(30_000);
    await ping();
    expect((await list(user))[0]?.last_sync_at).toBe(new Date(T0 + 11 * 60_000).toISOString());
  });

  it('keeps last_upload_at when the upload records are pruned', async () => {
    const laptop = await issueDevice(t, user, 'laptop');
    expect((await ingest(t, laptop.token, bucket(5))).statusCode).toBe(200);
    t.clock.advance(40 * 86_400_000);
    const purged = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-events-retention?days=30',
      headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
    });
    expect(purged.json()).toMatchObject({ deleted: 1 });
    expect((await list(await signIn(t, user.email)))[0]).toMatchObject({ last_upload_at: new Date(T0).toISOString() });
  });

  it('answers 401 without a user and 403 to a device', async () => {
    const device = await issueDevice(t, user);
    expect((await t.app.inject({ method: 'GET', url: '/functions/svc-devices' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/functions/svc-devices', headers: bearer(device.token) })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/functions/svc-device-revoke',
          headers: bearer(device.token),
          payload: { device_id: device.deviceId },
        })
      ).statusCode,
    ).toBe(403);
  });

  it("renames a device of the caller; another user's is 404 and a blank name 400", async () => {
    const device = await issueDevice(t, user, 'old');
    const res = await post(user, 'rename', { device_id: device.deviceId, name: '  Work laptop ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().device).toMatchObject({ device_id: device.deviceId, name: 'Work laptop' });
    expect((await list(user))[0]?.name).toBe('Work laptop');
    const other = await signUp(t);
    const refused = await post(other, 'rename', { device_id: device.deviceId, name: 'mine' });
    expect(refused.statusCode).toBe(404);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await post(user, 'rename', { device_id: device.deviceId, name: '   ' })).statusCode).toBe(400);
    expect((await post(user, 'rename', { device_id: device.deviceId, name: 'x', extra: 1 })).statusCode).toBe(400);
    expect((await post(user, 'rename', { device_id: 'not-a-uuid', name: 'x' })).statusCode).toBe(400);
    expect((await list(user))[0]?.name).toBe('Work laptop');
  });

  it('revokes a device: its (cached) token gets 401 at once, its uploads stay, revoking again changes nothing', async () => {
    const device = await issueDevice(t, user);
    const kept = await issueDevice(t, user, 'kept');
    expect((await ingest(t, device.token, bucket(7))).statusCode).toBe(200); // the token is now in the credential cache
    expect(await summaryTotal()).toBe('7');
    expect((await post(await signUp(t), 'revoke', { device_id: device.deviceId })).statusCode).toBe(404);
    expect((await ingest(t, device.token, bucket(8))).statusCode).toBe(200);

    t.clock.advance(1000);
    const res = await post(user, 'revoke', { device_id: device.deviceId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().device.revoked_at).toBe(new Date(t.clock.now()).toISOString());
    const refused = await ingest(t, device.token, bucket(9));
    expect(refused.statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/functions/svc-sync-ping', headers: bearer(device.token) }))
        .statusCode,
    ).toBe(401);
    expect(await summaryTotal()).toBe('8');
    expect((await ingest(t, kept.token, bucket(1))).statusCode).toBe(200);

    expect((await list(user)).map((d) => d.name)).toEqual(['kept']);
    const all = await list(user, '?include_revoked=1');
    expect(all.find((d) => d.device_id === device.deviceId)?.revoked_at).toBe(new Date(t.clock.now()).toISOString());
    t.clock.advance(1000);
    const again = await post(user, 'revoke', { device_id: device.deviceId });
    expect(again.json().device.revoked_at).toBe(new Date(t.clock.now() - 1000).toISOString());
  });

  it('npm run admin -- revoke-device revokes by id', async () => {
    const device = await issueDevice(t, user);
    const run = (...argv: string[]) => runAdminCommand(builtAppContext(t, t.db, t.clock), argv);
    const r = await run('revoke-device', device.deviceId);
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toBe(`revoked device ${device.deviceId} of user ${user.id} at ${new Date(T0).toISOString()}`);
    expect((await ingest(t, device.token, bucket(1))).statusCode).toBe(401);
    expect((await run('revoke-device', '00000000-0000-4000-8000-000000000000')).exitCode).toBe(2);
    expect((await run('revoke-device')).exitCode).toBe(2);
  });
});

describe(`device revocation across server processes (${engine})`, () => {
  let t: TestApp;
  const handlers: Array<(m: PeerMessage) => void> = [];
  const told: PeerMessage[] = [];
  const peers: Peers = {
    tell: (m) => void told.push(m),
    listen: (h) => {
      handlers.push(h);
      return () => undefined;
    },
  };
  beforeEach(async () => {
    t = await createTestApp({ peers });
  });
  afterEach(async () => t.close());

  it('tells the peers, and forgets a token another process revoked when told', async () => {
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    expect((await ingest(t, device.token, bucket(1))).statusCode).toBe(200);
    // Another process revoked it (same database): this process still has the token cached …
    await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-revoke',
      headers: bearer(user.accessToken),
      payload: { device_id: device.deviceId },
    });
    expect(told).toContainEqual({ kind: 'device-revoked', deviceId: device.deviceId });
    const second = await issueDevice(t, user, 'second');
    expect((await ingest(t, second.token, bucket(2))).statusCode).toBe(200);
    await t.db.kysely.updateTable('devices').set({ revoked_at: T0 }).where('id', '=', second.deviceId).execute();
    expect((await ingest(t, second.token, bucket(3))).statusCode).toBe(200);
    // … until the peer message arrives.
    for (const h of handlers) h({ kind: 'device-revoked', deviceId: second.deviceId });
    expect((await ingest(t, second.token, bucket(4))).statusCode).toBe(401);
  });
});

// The race of a revocation with a request already looking the token up: the lookup read the device
// as live, the revocation committed and forgot the cached token, then the lookup's answer arrived.
// It used to be cached then, and the revoked token kept working for the cache's 10 s.
describe(`a revocation racing a token lookup (${engine})`, () => {
  let t: TestApp;
  let hold: Promise<void> | undefined;
  let looked: (() => void) | undefined;
  const handlers: Array<(m: PeerMessage) => void> = [];
  const peers: Peers = {
    tell: () => undefined,
    listen: (h) => {
      handlers.push(h);
      return () => undefined;
    },
  };
  /** Holds the next device-token lookup after it read the database; resolves once it has. */
  const holdNextLookup = () => {
    let release!: () => void;
    hold = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (looked = resolve));
    return { reached, release };
  };
  beforeEach(async () => {
    t = await createTestApp({
      peers,
      hooks: {
        deviceTokenLooked: async () => {
          const waiting = hold;
          hold = undefined;
          looked?.();
          await waiting;
        },
      },
    });
  });
  afterEach(async () => t.close());

  it('a request that looked the token up before the revocation does not bring it back', async () => {
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    const held = holdNextLookup();
    const racing = ingest(t, device.token, bucket(1));
    await held.reached; // the lookup read the device as live
    const revoked = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-revoke',
      headers: bearer(user.accessToken),
      payload: { device_id: device.deviceId },
    });
    expect(revoked.statusCode).toBe(200);
    held.release();
    expect((await racing).statusCode).toBe(200); // it began before the revocation
    expect((await ingest(t, device.token, bucket(2))).statusCode).toBe(401);
  });

  it('the same when the revocation is heard from another process', async () => {
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    const held = holdNextLookup();
    const racing = ingest(t, device.token, bucket(1));
    await held.reached;
    await t.db.kysely.updateTable('devices').set({ revoked_at: T0 }).where('id', '=', device.deviceId).execute();
    for (const h of handlers) h({ kind: 'device-revoked', deviceId: device.deviceId });
    held.release();
    expect((await racing).statusCode).toBe(200);
    expect((await ingest(t, device.token, bucket(2))).statusCode).toBe(401);
  });
});
