/**
 * Webhooks end to end against a real local receiver: Standard Webhooks signatures checked with the
 * `standardwebhooks` package, retries with the same webhook-id, a restart and a second instance on
 * the same database, SSRF refusals, usage.daily, and an endpoint disabled after 24 h of failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { DAY_MS, epochDayOf } from '../../src/domain/calendar.js';
import { localDateAt, resolveZone, startOfLocalEpochDay } from '../../src/domain/zones.js';
import { capturingLogger, createTestApp, engine, testConfig, type TestApp } from '../helpers/app.js';
import { bearer, ingest, issueDevice, signIn, signUp, type TestUser } from '../helpers/actors.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** Near the real time (the library checks the signed timestamp against it), whole seconds. */
const NOW = Math.floor(Date.now() / 1000) * 1000;

describe(`webhooks (${engine})`, () => {
  let t: TestApp;
  let receiver: Receiver;
  let user: TestUser;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock(NOW), env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    receiver = await startReceiver();
    user = await signUp(t);
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await t.close();
    await receiver.close();
  });

  /** Another server over `t`'s database (closing it leaves the database open). */
  async function serverOver(env: Record<string, string>) {
    const built = await createApp({
      config: testConfig(env),
      db: { ...t.db, close: async () => undefined },
      clock: t.clock,
      logger: capturingLogger([]),
    });
    closers.push(built.close);
    return built;
  }

  async function call(method: 'GET' | 'POST', url: string, who: TestUser, payload?: unknown) {
    return t.app.inject({ method, url, headers: bearer(who.accessToken), ...(payload ? { payload } : {}) });
  }

  async function createHook(events: string[], extra: Record<string, unknown> = {}) {
    const res = await call('POST', '/functions/svc-webhook-create', user, {
      url: receiver.url,
      events,
      scope: 'user',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; secret: string }>();
  }

  const deliverDue = () => t.notifications.delivery.deliverDue();

  it('delivers a signed device.linked event that standardwebhooks verifies; retries a 500 with the same id', async () => {
    const hook = await createHook(['device.linked', 'device.revoked'], { description: 'ci' });
    expect(hook.secret).toMatch(/^whsec_/);
    receiver.received.length = 0;
    receiver.status = 500;
    const device = await issueDevice(t, user, 'box');
    expect(await deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    // Not due before its back-off.
    expect(await deliverDue()).toBe(0);
    t.clock.advance(5_000);
    receiver.status = 200;
    expect(await deliverDue()).toBe(1);
    const [first, second] = receiver.received;
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    const payload = new Webhook(hook.secret).verify(second?.body ?? '', second?.headers ?? {}) as {
      type: string;
      data: { device_id: string; user_id: string };
    };
    expect(payload.type).toBe('device.linked');
    expect(payload.data).toMatchObject({ device_id: device.deviceId, user_id: user.id });
    expect(() => new Webhook(hook.secret).verify(second?.body + ' ', second?.headers ?? {})).toThrow();

    const list = await call('GET', `/functions/svc-webhook-deliveries?id=${hook.id}`, user);
    expect(list.json<{ deliveries: { status_code: number }[] }>().deliveries.map((d) => d.status_code)).toEqual([
      200, 500,
    ]);
    const test = await call('POST', '/functions/svc-webhook-test', user, { id: hook.id });
    expect(test.json()).toMatchObject({ delivered: true, status_code: 200 });
    const stranger = await signUp(t);
    expect((await call('POST', '/functions/svc-webhook-test', stranger, { id: hook.id })).statusCode).toBe(404);
    expect((await call('GET', '/functions/svc-webhooks', stranger)).json()).toEqual({ webhooks: [] });
    const mine = (await call('GET', '/functions/svc-webhooks', user)).json<{ webhooks: { id: string }[] }>();
    expect(mine.webhooks.map((w) => w.id)).toContain(hook.id);
    expect((await call('POST', '/functions/svc-webhook-delete', user, { id: hook.id })).statusCode).toBe(200);
    expect((await call('GET', `/functions/svc-webhook-deliveries?id=${hook.id}`, user)).statusCode).toBe(404);
  });

  it('a restarted server delivers what the first queued; two instances deliver each message once', async () => {
    const hook = await createHook(['device.linked']);
    receiver.received.length = 0;
    const first = await serverOver({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    for (let i = 0; i < 3; i++) {
      const res = await first.app.inject({
        method: 'POST',
        url: '/functions/svc-device-token-issue',
        headers: bearer(user.accessToken),
        payload: { device_name: `d${i}`, platform: 'linux' },
      });
      expect(res.statusCode).toBe(200);
    }
    await first.close();
    expect(receiver.received).toHaveLength(0);
    // Two instances at once, the receiver slow enough for their passes to overlap.
    const second = await serverOver({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver.delayMs = 50;
    const [a, b] = await Promise.all([deliverDue(), second.notifications.delivery.deliverDue()]);
    receiver.delayMs = 0;
    expect(a + b).toBe(3);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(3);
    expect(ids).toHaveLength(3);
    for (const r of receiver.received) expect(() => new Webhook(hook.secret).verify(r.body, r.headers)).not.toThrow();
    await call('POST', '/functions/svc-webhook-delete', user, { id: hook.id });
  });

  it('refuses private and plain-http URLs at registration and at delivery without WEBHOOK_ALLOW_PRIVATE', async () => {
    const strict = await serverOver({});
    const create = (url: string) =>
      strict.app.inject({
        method: 'POST',
        url: '/functions/svc-webhook-create',
        headers: bearer(user.accessToken),
        payload: { url, events: ['device.linked'], scope: 'user' },
      });
    for (const url of [
      receiver.url,
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://169.254.169.254/latest',
      'https://10.1.2.3/',
      'https://[::1]/',
      'https://[::ffff:192.168.0.1]/',
      'ftp://example.com/',
    ]) {
      const res = await create(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ errors: { path: string }[] }>().errors[0]?.path).toBe('/body/url');
    }
    // Registered while private addresses were allowed: the strict server refuses to deliver there.
    const hook = await createHook(['device.linked']);
    receiver.received.length = 0;
    await issueDevice(t, user, 'strict');
    expect(await strict.notifications.delivery.deliverDue()).toBe(1);
    expect(receiver.received).toHaveLength(0);
    const attempts = (await call('GET', `/functions/svc-webhook-deliveries?id=${hook.id}`, user)).json<{
      deliveries: { status_code: number | null; error: string }[];
    }>();
    expect(attempts.deliveries[0]).toMatchObject({ status_code: null });
    expect(attempts.deliveries[0]?.error).toMatch(/https/);
    await call('POST', '/functions/svc-webhook-delete', user, { id: hook.id });
  });

  it('queues usage.daily once for the previous local day, by source and model', async () => {
    const hook = await createHook(['usage.daily'], { tz: 'Europe/Paris' });
    // Registered before the day it reports: pretend it was made two days ago.
    await t.db.kysely
      .updateTable('webhooks')
      .set({ created_at: NOW - 2 * DAY_MS })
      .where('id', '=', hook.id)
      .execute();
    const { token } = await issueDevice(t, user, 'daily');
    // Noon of the previous day in Paris (NOW is the real time: which day that is depends on when the test runs).
    const paris = resolveZone({ tz: 'Europe/Paris' });
    const yesterdayNoon = startOfLocalEpochDay(paris, epochDayOf(localDateAt(paris, NOW)) - 1) + 12 * 3_600_000;
    const hourStart = new Date(yesterdayNoon).toISOString();
    const up = await ingest(t, token, [
      { hour_start: hourStart, source: 'claude', model: 'claude-sonnet-4', input_tokens: 1000, total_tokens: 1000 },
      {
        hour_start: hourStart,
        source: 'codex',
        model: 'gpt-5',
        input_tokens: 500,
        output_tokens: 10,
        total_tokens: 510,
      },
    ]);
    expect(up.statusCode, up.body).toBe(200);
    // Other messages (device.linked) are not for this hook; only usage.daily is queued, once.
    expect(await t.notifications.queueUsageDaily()).toBe(1);
    expect(await t.notifications.queueUsageDaily()).toBe(0);
    receiver.received.length = 0;
    await deliverDue();
    const got = receiver.received.map((r) => new Webhook(hook.secret).verify(r.body, r.headers)) as {
      type: string;
      data: {
        date: string;
        by_source_model: { source: string; total_tokens: string }[];
        totals: { total_tokens: string };
      };
    }[];
    const daily = got.find((p) => p.type === 'usage.daily');
    expect(daily?.data.totals.total_tokens).toBe('1510');
    expect(daily?.data.by_source_model.map((l) => [l.source, l.total_tokens]).sort()).toEqual([
      ['claude', '1000'],
      ['codex', '510'],
    ]);
    await call('POST', '/functions/svc-webhook-delete', user, { id: hook.id });
  });

  // Last: it moves the clock a day on.
  it('disables an endpoint failing for 24 h and tells its owner', async () => {
    const hook = await createHook(['device.revoked']);
    const { deviceId } = await issueDevice(t, user, 'to-revoke');
    const revoke = await call('POST', '/functions/svc-device-revoke', user, { device_id: deviceId });
    expect(revoke.statusCode, revoke.body).toBe(200);
    receiver.status = 503;
    let attempts = 0;
    for (let hour = 0; hour <= 25; hour++) {
      attempts += await deliverDue();
      t.clock.advance(3_600_000);
    }
    expect(attempts).toBeGreaterThan(3);
    user = await signIn(t, user.email); // the session's access token expired meanwhile
    const hooks = (await call('GET', '/functions/svc-webhooks', user)).json<{
      webhooks: { id: string; disabled_at: string | null }[];
    }>();
    expect(hooks.webhooks.find((w) => w.id === hook.id)?.disabled_at).not.toBeNull();
    const notice = (await call('GET', '/functions/svc-budget-alerts', user)).json<{
      disabled_webhooks: { id: string }[];
    }>();
    expect(notice.disabled_webhooks.map((w) => w.id)).toContain(hook.id);
    receiver.status = 200;
    expect(await deliverDue()).toBe(0);
  });
});
