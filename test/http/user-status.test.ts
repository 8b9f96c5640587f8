import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEntitlement, revokeEntitlements } from '../../src/db/queries/entitlements.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { ok } from './usage-helpers.js';

type Row = Record<string, unknown>;

describe(`getUserStatus (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signUp(t);
  });
  afterAll(async () => t.close());

  it('a new account: created_at, pro inactive, no subscriptions, no devices', async () => {
    const body = await ok<Row>(t, user, 'user-status');
    const now = new Date(t.clock.now()).toISOString();
    expect(body).toEqual({
      user_id: user.id,
      created_at: now,
      pro: { active: false, sources: [], expires_at: null, as_of: now },
      subscriptions: { as_of: now, items: [] },
      install: { as_of: now, has_active_device: false, active_devices: 0, last_upload_at: null, last_sync_at: null },
      storage: { stored_buckets: 0, max_stored_buckets: 5_000_000 },
    });
  });

  it('reports the subscriptions of the latest uploads and the install state', async () => {
    const laptop = await issueDevice(t, user, 'laptop');
    t.clock.advance(60_000);
    const res = await ingest(t, laptop.token, [{ hour_start: '2026-11-01T10:00:00Z', total_tokens: 5 }], {
      device_subscriptions: [
        { tool: 'Codex', provider: 'OpenAI', product: 'ChatGPT', planType: 'pro', rateLimitTier: 'tier-1', seats: 1 },
        { tool: 'claude', provider: 'anthropic', plan_type: 'max' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const uploadedAt = new Date(t.clock.now()).toISOString();
    await issueDevice(t, user, 'desktop'); // never synced
    t.clock.advance(60_000);
    const body = await ok<{ subscriptions: { items: Row[] }; install: Row }>(t, user, 'user-status');
    expect(body.subscriptions.items).toHaveLength(2);
    expect(body.subscriptions.items[0]).toMatchObject({
      tool: 'codex',
      provider: 'openai',
      product: 'ChatGPT',
      plan_type: 'pro',
      rate_limit_tier: 'tier-1',
      device_id: laptop.deviceId,
      observed_at: uploadedAt,
    });
    expect((body.subscriptions.items[0]?.details as Row).seats).toBe(1);
    expect(body.subscriptions.items[1]).toMatchObject({ tool: 'claude', plan_type: 'max' });
    expect(body.install).toMatchObject({
      has_active_device: true,
      active_devices: 2,
      last_upload_at: uploadedAt,
      last_sync_at: uploadedAt,
    });
    expect((body as { storage?: Row }).storage).toEqual({ stored_buckets: 1, max_stored_buckets: 5_000_000 });
  });

  it("never shows another user's devices or subscriptions", async () => {
    const stranger = await signUp(t);
    const body = await ok<{ user_id: string; subscriptions: { items: Row[] }; install: Row }>(
      t,
      stranger,
      'user-status',
    );
    expect(body.user_id).toBe(stranger.id);
    expect(body.subscriptions.items).toEqual([]);
    expect(body.install).toMatchObject({ active_devices: 0 });
  });

  it('pro: active while an entitlement is in force, with its source and expiry', async () => {
    const member = await signUp(t);
    const now = t.clock.now();
    await insertEntitlement(t.db.kysely, {
      id: 'e1-' + member.id,
      userId: member.id,
      source: 'manual',
      grantedAt: now - 1000,
      expiresAt: now + 86_400_000,
    });
    await insertEntitlement(t.db.kysely, {
      id: 'e2-' + member.id,
      userId: member.id,
      source: 'override',
      grantedAt: now - 1000,
      expiresAt: now + 2 * 86_400_000,
    });
    const body = await ok<{ pro: Row }>(t, member, 'user-status');
    expect(body.pro).toMatchObject({
      active: true,
      sources: ['manual', 'override'],
      expires_at: new Date(now + 2 * 86_400_000).toISOString(),
    });
    // Other users are not affected; expiry and revocation end it.
    expect((await ok<{ pro: Row }>(t, user, 'user-status')).pro).toMatchObject({ active: false, sources: [] });
    const lapsed = await signUp(t);
    await insertEntitlement(t.db.kysely, {
      id: 'e3-' + lapsed.id,
      userId: lapsed.id,
      source: 'manual',
      grantedAt: now - 2 * 86_400_000,
      expiresAt: now - 1,
    });
    expect((await ok<{ pro: Row }>(t, lapsed, 'user-status')).pro).toMatchObject({
      active: false,
      sources: [],
      expires_at: null,
    });
    await revokeEntitlements(t.db.kysely, member.id, t.clock.now());
    expect((await ok<{ pro: Row }>(t, member, 'user-status')).pro).toMatchObject({
      active: false,
      sources: [],
      expires_at: null,
    });
  });

  it('401 without a bearer, 403 for a device token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/functions/svc-user-status' })).statusCode).toBe(401);
    const device = await issueDevice(t, user, 'probe');
    expect(
      (await t.app.inject({ method: 'GET', url: '/functions/svc-user-status', headers: bearer(device.token) }))
        .statusCode,
    ).toBe(403);
  });
});
