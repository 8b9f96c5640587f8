import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeLinkCode } from '../../src/domain/link-code.js';
import { bearer, ingest, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

describe(`device onboarding (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;

  beforeEach(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterEach(async () => t.close());

  async function linkCode(): Promise<{ link_code: string; expires_at: string }> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-link-code-init',
      headers: bearer(user.accessToken),
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  function exchange(payload: Record<string, unknown>, headers: Record<string, string> = {}) {
    return t.app.inject({ method: 'POST', url: '/functions/svc-link-code-exchange', payload, headers });
  }

  it('creates easy-to-type codes valid for 10 minutes', async () => {
    const code = await linkCode();
    expect(code.link_code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(Date.parse(code.expires_at) - t.clock.now()).toBe(600_000);
  });

  it('exchanges a code for a working device token, replay-safe by request_id', async () => {
    const { link_code } = await linkCode();
    const typed = link_code.toLowerCase().replaceAll('-', '').replaceAll('1', 'l').replaceAll('0', 'o');
    expect(normalizeLinkCode(typed)).toBe(link_code.replaceAll('-', ''));
    const first = await exchange(
      { link_code: typed, request_id: 'req-1', device_name: 'box', platform: 'Linux' },
      bearer('junk'),
    );
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json<{ token: string; device_id: string; user_id: string }>();
    expect(body.user_id).toBe(user.id);
    expect(body.token).toMatch(/^tt_dev_[A-Za-z0-9_-]{43}$/);

    t.clock.advance(20 * 60_000); // past the code's expiry: a replay still answers
    const replay = await exchange({ link_code, request_id: 'req-1' });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(body);

    const conflict = await exchange({ link_code, request_id: 'req-2' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('conflict');

    expect((await ingest(t, body.token, [{ hour_start: '2026-11-01T12:00:00Z', total_tokens: 1 }])).statusCode).toBe(
      200,
    );
    const devices = await t.db.kysely
      .selectFrom('devices')
      .select(['name', 'platform'])
      .where('user_id', '=', user.id)
      .execute();
    expect(devices).toEqual([{ name: 'box', platform: 'linux' }]);

    t.clock.advance(25 * 60 * 60_000); // the replay window has closed
    expect((await exchange({ link_code, request_id: 'req-1' })).statusCode).toBe(409);
  });

  it('stores neither codes nor tokens in clear', async () => {
    const { link_code } = await linkCode();
    const { token } = (await exchange({ link_code, request_id: 'r' })).json<{ token: string }>();
    const codes = await t.db.kysely.selectFrom('link_codes').selectAll().execute();
    const tokens = await t.db.kysely.selectFrom('device_tokens').selectAll().execute();
    const stored = JSON.stringify([codes, tokens], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    expect(stored).not.toContain(link_code.replaceAll('-', ''));
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(7));
  });

  it('answers 400 for unknown, malformed and expired codes and malformed bodies', async () => {
    const { link_code } = await linkCode();
    expect((await exchange({ link_code: 'ZZZZ-ZZZZ-ZZZZ', request_id: 'r' })).statusCode).toBe(400);
    expect((await exchange({ link_code: 'not a code!', request_id: 'r' })).statusCode).toBe(400);
    expect((await exchange({ link_code })).statusCode).toBe(400);
    expect((await exchange({ link_code, request_id: '' })).statusCode).toBe(400);
    expect((await exchange({ link_code, request_id: 'r', extra: true })).statusCode).toBe(400);
    expect((await exchange({ link_code, request_id: 'x'.repeat(129) })).statusCode).toBe(400);
    expect((await exchange({ link_code, request_id: 'r', device_name: 'x'.repeat(129) })).statusCode).toBe(400);
    t.clock.advance(600_000);
    const expired = await exchange({ link_code, request_id: 'r' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().detail).toContain('expired');
  });

  it('gives one winner when two requests race for one code', async () => {
    const { link_code } = await linkCode();
    const [a, b] = await Promise.all([
      exchange({ link_code, request_id: 'a' }),
      exchange({ link_code, request_id: 'b' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
  });

  it('issues device tokens for the caller, or for a named user with the service role key', async () => {
    const other = await signUp(t);
    const forOther = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-token-issue',
      headers: bearer(user.accessToken),
      payload: { user_id: other.id },
    });
    expect(forOther.statusCode).toBe(403);
    const forSelf = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-token-issue',
      headers: bearer(user.accessToken),
      payload: { user_id: user.id },
    });
    expect(forSelf.statusCode).toBe(200);
    const noBody = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-device-token-issue',
      headers: bearer(user.accessToken),
    });
    expect(noBody.statusCode).toBe(200);
    expect(noBody.json()).toMatchObject({
      device_id: expect.any(String),
      token: expect.stringMatching(/^tt_dev_/),
      created_at: new Date(t.clock.now()).toISOString(),
    });

    const service = bearer(TEST_SECRETS.SERVICE_ROLE_KEY);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/functions/svc-device-token-issue',
          headers: service,
          payload: { user_id: other.id },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/functions/svc-device-token-issue', headers: service, payload: {} }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/functions/svc-device-token-issue',
          headers: service,
          payload: { user_id: '00000000-0000-4000-8000-000000000000' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/functions/svc-device-token-issue',
          headers: service,
          payload: { user_id: 'nope' },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('records sync pings at most every 30 minutes', async () => {
    const { token } = (await exchange({ link_code: (await linkCode()).link_code, request_id: 'r' })).json<{
      token: string;
    }>();
    const ping = () =>
      t.app.inject({ method: 'POST', url: '/functions/svc-sync-ping', headers: bearer(token), payload: 'ignored' });
    const first = await ping();
    expect(first.json()).toEqual({
      success: true,
      updated: true,
      last_sync_at: new Date(t.clock.now()).toISOString(),
      min_interval_minutes: 30,
    });
    const stamp = first.json().last_sync_at;
    t.clock.advance(29 * 60_000);
    expect((await ping()).json()).toMatchObject({ updated: false, last_sync_at: stamp });
    t.clock.advance(60_000);
    expect((await ping()).json()).toMatchObject({ updated: true, last_sync_at: new Date(t.clock.now()).toISOString() });
  });
});

describe(`link-code exchange rate limit (${engine})`, () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  it('limits exchanges per client address', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_EXCHANGE_PER_MINUTE: '2' } });
    const attempt = () =>
      t!.app.inject({
        method: 'POST',
        url: '/functions/svc-link-code-exchange',
        payload: { link_code: 'AAAA-BBBB-CCCC', request_id: 'r' },
      });
    expect((await attempt()).statusCode).toBe(400);
    expect((await attempt()).statusCode).toBe(400);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('30');
  });
});
