/**
 * Personal API tokens (docs/api-tokens.md): create, list, revoke; a token reads what its user's
 * sign-in token reads, and is refused every write (403) — swept over every operation of
 * /openapi.json and the sign-in API; revoked, expired and deleted-account tokens are 401 at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PeerMessage, Peers } from '../../src/process/peers.js';
import { bearer, ingest, issueDevice, signIn, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, T0, type TestApp } from '../helpers/app.js';

const DAY = 86_400_000;
const BUCKETS = [
  { hour_start: '2026-10-20T10:00:00Z', source: 'codex', model: 'gpt-5', input_tokens: 500, total_tokens: 500 },
  {
    hour_start: '2026-10-21T15:30:00Z',
    source: 'claude',
    model: 'claude-sonnet-4',
    output_tokens: 70,
    total_tokens: 70,
  },
];

interface Created {
  id: string;
  token: string;
  name: string;
  created_at: string;
  expires_at: string | null;
}

function helpers(get: () => TestApp) {
  const create = (token: string, payload: Record<string, unknown>) =>
    get().app.inject({ method: 'POST', url: '/functions/svc-api-token-create', headers: bearer(token), payload });
  const created = async (user: TestUser, name = 'dashboard', days?: number): Promise<Created> => {
    const res = await create(user.accessToken, { name, ...(days === undefined ? {} : { expires_in_days: days }) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Created>();
  };
  const list = (token: string) =>
    get().app.inject({ method: 'GET', url: '/functions/svc-api-tokens', headers: bearer(token) });
  const revoke = (token: string, id: string) =>
    get().app.inject({
      method: 'POST',
      url: '/functions/svc-api-token-revoke',
      headers: bearer(token),
      payload: { id },
    });
  const read = (token: string, url = '/functions/svc-user-status') =>
    get().app.inject({ method: 'GET', url, headers: bearer(token) });
  return { create, created, list, revoke, read };
}

describe(`personal API tokens (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  const { create, created, list, revoke, read } = helpers(() => t);
  beforeEach(async () => {
    t = await createTestApp({ env: { MAX_API_TOKENS_PER_USER: '3' } });
    user = await signUp(t);
  });
  afterEach(async () => t.close());

  it('creates a token shown once, lists it without the token, revokes it', async () => {
    const a = await created(user, '  grafana  ');
    expect(a.token).toMatch(/^tt_pat_[A-Za-z0-9_-]{43}$/);
    expect(a).toMatchObject({ name: 'grafana', created_at: new Date(T0).toISOString(), expires_at: null });
    t.clock.advance(1000);
    const b = await created(user, 'agent', 30);
    expect(b.expires_at).toBe(new Date(T0 + 1000 + 30 * DAY).toISOString());

    const listed = await list(user.accessToken);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(a.token);
    expect(listed.body).not.toContain(b.token);
    // Newest first.
    expect(listed.json().tokens).toEqual([
      { id: b.id, name: 'agent', created_at: b.created_at, expires_at: b.expires_at, last_used_at: null },
      { id: a.id, name: 'grafana', created_at: a.created_at, expires_at: null, last_used_at: null },
    ]);
    // Only the hash is stored.
    const stored = await t.db.kysely.selectFrom('api_tokens').selectAll().execute();
    expect(JSON.stringify(stored, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      a.token.slice(7),
    );

    const revoked = await revoke(user.accessToken, a.id);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ revoked: true, id: a.id });
    expect((await list(user.accessToken)).json().tokens.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect((await revoke(user.accessToken, a.id)).statusCode).toBe(404);
    // Another user's token is not yours to revoke (nor to see).
    const other = await signUp(t);
    expect((await revoke(other.accessToken, b.id)).statusCode).toBe(404);
    expect((await list(other.accessToken)).json().tokens).toEqual([]);
    expect((await read(b.token)).statusCode).toBe(200);
  });

  it('reads analytics, status, export, devices, visibility and the leaderboard as its user does', async () => {
    const device = await issueDevice(t, user);
    expect((await ingest(t, device.token, BUCKETS)).statusCode).toBe(200);
    const { token } = await created(user);
    for (const url of [
      '/functions/svc-user-status',
      '/functions/svc-usage-summary?from=2026-10-01&to=2026-10-31',
      '/functions/svc-usage-daily?from=2026-10-01&to=2026-10-31',
      '/functions/svc-usage-hourly?day=2026-10-21',
      '/functions/svc-usage-monthly',
      '/functions/svc-usage-heatmap?to=2026-10-31',
      '/functions/svc-usage-model-breakdown?from=2026-10-01&to=2026-10-31',
      '/functions/svc-project-usage-summary',
      '/functions/svc-export?format=json',
      '/functions/svc-export?format=csv',
      '/functions/svc-devices',
      '/functions/svc-public-visibility',
      '/functions/svc-leaderboard?period=week',
      '/functions/svc-api-tokens',
      '/auth/v1/user',
    ]) {
      const withJwt = await read(user.accessToken, url);
      const withPat = await read(token, url);
      expect(withJwt.statusCode, `${url}: ${withJwt.body}`).toBe(200);
      expect(withPat.statusCode, `${url}: ${withPat.body}`).toBe(200);
      if (!url.endsWith('svc-api-tokens')) expect(withPat.body, url).toBe(withJwt.body);
    }
    const debug = await read(token, '/functions/svc-debug-auth');
    expect(debug.json()).toEqual({ hasAnonKey: false, hasBearer: true, authOk: true, userId: user.id, error: null });
  });

  it('is refused (403) by every operation that writes or issues credentials, and changes nothing', async () => {
    const device = await issueDevice(t, user);
    const { token, id } = await created(user);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    }>();
    const userOps = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => (op.security ?? []).some((s) => 'UserJWT' in s))
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
    const writes = userOps.filter((op) => op.method !== 'GET');
    // The sign-in API (kept out of /openapi.json): profile and password change, sign-out.
    writes.push({ method: 'PUT', path: '/auth/v1/user' }, { method: 'POST', path: '/auth/v1/logout' });
    expect(writes.map((w) => w.path)).toEqual(
      expect.arrayContaining([
        '/functions/svc-device-token-issue',
        '/functions/svc-link-code-init',
        '/functions/svc-device-rename',
        '/functions/svc-device-revoke',
        '/functions/svc-public-visibility',
        '/functions/svc-account-delete',
        '/functions/svc-api-token-create',
        '/functions/svc-api-token-revoke',
      ]),
    );
    const bodies: Record<string, Record<string, unknown>> = {
      '/functions/svc-device-rename': { device_id: device.deviceId, name: 'stolen' },
      '/functions/svc-device-revoke': { device_id: device.deviceId },
      '/functions/svc-public-visibility': { enabled: true },
      '/functions/svc-account-delete': { password: 'correct horse' },
      '/functions/svc-api-token-create': { name: 'more' },
      '/functions/svc-api-token-revoke': { id },
      '/functions/svc-device-token-issue': { device_name: 'x', platform: 'linux' },
      '/auth/v1/user': { password: 'a brand new password', data: { display_name: 'Mallory' } },
    };
    for (const op of writes) {
      const res = await t.app.inject({
        method: op.method as 'POST' | 'PUT',
        url: op.path,
        headers: bearer(token),
        payload: bodies[op.path] ?? {},
      });
      expect(res.statusCode, `${op.method} ${op.path}: ${res.body}`).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    // Every read that accepts the user role lets it through (400 at worst, for a missing parameter).
    for (const op of userOps.filter((o) => o.method === 'GET')) {
      expect([401, 403], op.path).not.toContain((await read(token, op.path)).statusCode);
    }
    // Nothing changed: the device, the tokens, the session, the account and its visibility.
    const devices = (await read(user.accessToken, '/functions/svc-devices')).json().devices;
    expect(devices).toMatchObject([{ device_id: device.deviceId, name: 'laptop', revoked_at: null }]);
    expect((await list(user.accessToken)).json().tokens.map((x: { id: string }) => x.id)).toEqual([id]);
    expect((await read(user.accessToken, '/functions/svc-public-visibility')).json().enabled).toBe(false);
    expect((await read(user.accessToken, '/auth/v1/user')).json().user_metadata.display_name ?? null).toBeNull();
    expect((await read(token)).statusCode).toBe(200);
  });

  it('a revoked token is refused at once, even right after a request that remembered it', async () => {
    const { token, id } = await created(user);
    expect((await read(token)).statusCode).toBe(200);
    expect((await revoke(user.accessToken, id)).statusCode).toBe(200);
    const refused = await read(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    expect(refused.json().detail).toMatch(/unknown or revoked API token/);
  });

  it('an expired token is refused from its expiry on, remembered or not', async () => {
    const { token } = await created(user, 'short', 1);
    expect((await read(token)).statusCode).toBe(200);
    t.clock.advance(DAY - 1);
    expect((await read(token)).statusCode).toBe(200);
    t.clock.advance(1);
    const refused = await read(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().detail).toMatch(/expired/);
  });

  it('notes the last use at most once a minute', async () => {
    const { token, id } = await created(user);
    const lastUsed = async () =>
      (await list(user.accessToken))
        .json<{ tokens: { id: string; last_used_at: string | null }[] }>()
        .tokens.find((x) => x.id === id)?.last_used_at;
    expect(await lastUsed()).toBeNull();
    await read(token);
    expect(await lastUsed()).toBe(new Date(T0).toISOString());
    t.clock.advance(59_000);
    await read(token);
    expect(await lastUsed()).toBe(new Date(T0).toISOString());
    t.clock.advance(1_000);
    await read(token);
    expect(await lastUsed()).toBe(new Date(T0 + 60_000).toISOString());
  });

  it('a token may list tokens but not create or revoke them', async () => {
    const { token, id } = await created(user);
    expect((await list(token)).json().tokens.map((x: { id: string }) => x.id)).toEqual([id]);
    expect((await create(token, { name: 'child' })).statusCode).toBe(403);
    expect((await revoke(token, id)).statusCode).toBe(403);
    expect((await list(user.accessToken)).json().tokens).toHaveLength(1);
  });

  it('refuses bad bodies with 400 and nothing stored', async () => {
    for (const payload of [
      { name: 'x', extra: 1 },
      { name: '' },
      { name: '   ' },
      { name: '\t' },
      { name: 'a\u0007b' },
      { name: 'x'.repeat(101) },
      { name: 'x', expires_in_days: 0 },
      { name: 'x', expires_in_days: 3651 },
      { name: 'x', expires_in_days: 1.5 },
      { name: 'x', expires_in_days: '30' },
      { name: 5 },
      {},
    ]) {
      const res = await create(user.accessToken, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    const blank = await create(user.accessToken, { name: '   ' });
    expect(blank.json().errors[0].path).toBe('/body/name');
    expect((await revoke(user.accessToken, 'not-a-uuid')).statusCode).toBe(400);
    const { id } = await created(user);
    const extra = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-api-token-revoke',
      headers: bearer(user.accessToken),
      payload: { id, also: true },
    });
    expect(extra.statusCode).toBe(400);
    expect((await created(user, 'x'.repeat(100))).name).toHaveLength(100);
    expect((await list(user.accessToken)).json().tokens).toHaveLength(2);
  });

  it('bounds the tokens of a user (409 past MAX_API_TOKENS_PER_USER); expired ones make room', async () => {
    const first = await created(user, 'one', 1);
    await created(user, 'two');
    await created(user, 'three');
    const refused = await create(user.accessToken, { name: 'four' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/3 API tokens/);
    expect((await list(user.accessToken)).json().tokens).toHaveLength(3);
    // Expired, a token stays listed until a new one needs its place.
    t.clock.advance(DAY);
    user = await signIn(t, user.email);
    const names = async () =>
      (await list(user.accessToken))
        .json<{ tokens: { name: string }[] }>()
        .tokens.map((x) => x.name)
        .sort();
    expect(await names()).toEqual(['one', 'three', 'two']);
    const four = await created(user, 'four');
    expect(await names()).toEqual(['four', 'three', 'two']);
    expect((await create(user.accessToken, { name: 'five' })).statusCode).toBe(409);
    expect(await t.db.kysely.selectFrom('api_tokens').select('id').execute()).toHaveLength(3);
    // Revoking makes room too.
    expect((await revoke(user.accessToken, first.id)).statusCode).toBe(404);
    expect((await revoke(user.accessToken, four.id)).statusCode).toBe(200);
    await created(user, 'five');
  });

  it('a deleted account takes its tokens with it', async () => {
    const { token } = await created(user);
    expect((await read(token)).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-account-delete',
      headers: bearer(user.accessToken),
      payload: { password: 'correct horse' },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await read(token)).statusCode).toBe(401);
    expect(await t.db.kysely.selectFrom('api_tokens').selectAll().execute()).toEqual([]);
  });
});

describe(`API token creation is rate limited per user (${engine})`, () => {
  let t: TestApp;
  const { create, created } = helpers(() => t);
  beforeEach(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_DEVICES_PER_MINUTE: '2' } });
  });
  afterEach(async () => t.close());

  it('answers 429 with Retry-After past the per-user bucket, which is its own', async () => {
    const user = await signUp(t);
    await created(user, 'a');
    await created(user, 'b');
    const refused = await create(user.accessToken, { name: 'c' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Devices keep their own bucket; another user has theirs.
    await issueDevice(t, user);
    await created(await signUp(t), 'a');
    t.clock.advance(30_000);
    await created(user, 'c');
  });
});

describe(`API token revocation across server processes (${engine})`, () => {
  let t: TestApp;
  let handlers: Array<(m: PeerMessage) => void>;
  let told: PeerMessage[];
  const peers: Peers = {
    tell: (m) => void told.push(m),
    listen: (h) => {
      handlers.push(h);
      return () => undefined;
    },
  };
  const { created, revoke, read } = helpers(() => t);
  beforeEach(async () => {
    handlers = [];
    told = [];
    t = await createTestApp({ peers });
  });
  afterEach(async () => t.close());

  it('tells the peers, and forgets a token another process revoked when told', async () => {
    const user = await signUp(t);
    const first = await created(user, 'first');
    await revoke(user.accessToken, first.id);
    expect(told).toContainEqual({ kind: 'api-token-revoked', tokenId: first.id });
    // Another process revoked this one (same database): this process still remembers it …
    const second = await created(user, 'second');
    expect((await read(second.token)).statusCode).toBe(200);
    await t.db.kysely.deleteFrom('api_tokens').where('id', '=', second.id).execute();
    expect((await read(second.token)).statusCode).toBe(200);
    // … until the peer message arrives.
    for (const h of handlers) h({ kind: 'api-token-revoked', tokenId: second.id });
    expect((await read(second.token)).statusCode).toBe(401);
  });
});
