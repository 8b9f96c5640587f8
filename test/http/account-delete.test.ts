import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { openPostgres, openSqlite, type Db } from '../../src/db/connect.js';
import { USER_OWNED } from '../../src/db/queries/account-deletion.js';
import type { PeerMessage, Peers } from '../../src/process/peers.js';
import { JwtService } from '../../src/security/jwt.js';
import {
  capturingLogger,
  createTestApp,
  dropTestSchema,
  T0,
  TEST_SECRETS,
  testConfig,
  testDatabaseUrl,
  type TestApp,
} from '../helpers/app.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { seedUser } from '../helpers/seed.js';

const PASSWORD = 'correct horse';
const hours = (day: string, n: number, model: string) =>
  Array.from({ length: n }, (_, i) => ({
    hour_start: new Date(Date.parse(`${day}T00:00:00Z`) + i * 1_800_000).toISOString(),
    source: 'codex',
    model,
    input_tokens: 100 + i,
    output_tokens: 10,
    total_tokens: 110 + i,
    project_key: 'acme/app',
    project_ref: 'https://github.com/acme/app',
  }));

describe('deleteAccount', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (url: string, token?: string) =>
    t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
  const del = (user: TestUser, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/functions/svc-account-delete', headers: bearer(user.accessToken), payload });
  const refresh = (service = true) =>
    t.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(service ? t.secrets.serviceRoleKey : ''),
    });
  const summary = (user: TestUser) =>
    get('/functions/svc-usage-summary?from=2026-10-01&to=2026-10-31', user.accessToken);

  /**
   * This test's own tables. On PostgreSQL introspection lists every schema's tables, and other test
   * files (another pass, an upgrade test) hold schemas of their own in the same database at once.
   */
  async function ownTables() {
    const tables = await t.db.kysely.introspection.getTables();
    if (t.db.dialect !== 'postgres') return tables;
    const current = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db.kysely);
    return tables.filter((table) => table.schema === current.rows[0]?.schema);
  }

  async function rowsOf(userId: string): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const table of await ownTables()) {
      const column =
        table.name === 'users' ? 'id' : table.columns.some((c) => c.name === 'user_id') ? 'user_id' : undefined;
      if (!column) continue;
      const row = await t.db.kysely
        .selectFrom(table.name as 'users')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .where(column as 'id', '=', userId)
        .executeTakeFirstOrThrow();
      out[table.name] = Number(row.n);
    }
    return out;
  }

  async function setUp() {
    const ada = await signUp(t, undefined, PASSWORD);
    const bob = await signUp(t);
    const adaLaptop = await issueDevice(t, ada, 'laptop');
    const adaDesk = await issueDevice(t, ada, 'desk');
    const bobLaptop = await issueDevice(t, bob, 'laptop');
    expect((await ingest(t, adaLaptop.token, hours('2026-10-30', 6, 'gpt-5'))).statusCode).toBe(200);
    expect((await ingest(t, adaDesk.token, hours('2026-10-31', 4, 'claude-sonnet-4'))).statusCode).toBe(200);
    expect((await ingest(t, bobLaptop.token, hours('2026-10-30', 3, 'gpt-5'))).statusCode).toBe(200);
    const share = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-public-visibility',
      headers: bearer(ada.accessToken),
      payload: { enabled: true },
    });
    await t.app.inject({
      method: 'POST',
      url: '/functions/svc-public-visibility',
      headers: bearer(bob.accessToken),
      payload: { enabled: true },
    });
    await t.app.inject({ method: 'POST', url: '/functions/svc-link-code-init', headers: bearer(ada.accessToken) });
    expect((await refresh()).statusCode).toBe(200);
    return { ada, bob, adaLaptop, shareToken: share.json<{ share_token: string }>().share_token };
  }

  it('lists every table that has a user_id column', async () => {
    const listed = new Set(USER_OWNED.map((o) => o.table as string));
    const withUser = (await ownTables())
      .filter((table) => table.columns.some((c) => c.name === 'user_id'))
      .map((table) => table.name);
    expect(withUser.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('a wrong or missing password deletes nothing', async () => {
    const { ada, adaLaptop } = await setUp();
    const before = await rowsOf(ada.id);
    const wrong = await del(ada, { password: 'not the password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.headers['content-type']).toMatch(/problem\+json/);
    expect((await del(ada, {})).statusCode).toBe(400);
    expect((await del(ada, { confirm: 'delete my account' })).statusCode).toBe(400);
    expect((await del(ada, { password: PASSWORD, extra: 1 })).statusCode).toBe(400);
    expect(await rowsOf(ada.id)).toEqual(before);
    expect((await summary(ada)).statusCode).toBe(200);
    expect((await ingest(t, adaLaptop.token, hours('2026-10-29', 1, 'gpt-5'))).statusCode).toBe(200);
    // Only the user: other credentials are refused.
    const device = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-account-delete',
      headers: bearer(adaLaptop.token),
      payload: { password: PASSWORD },
    });
    expect(device.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/functions/svc-account-delete', payload: { password: PASSWORD } }))
        .statusCode,
    ).toBe(401);
  });

  it('removes everything the user owns; nothing of it is readable afterwards; others are unchanged', async () => {
    const { ada, bob, adaLaptop, shareToken } = await setUp();
    const board = async () =>
      (await get('/functions/svc-leaderboard?period=total&metric=all')).json<{
        total_entries: number;
        entries: { user_id: string | null; total_tokens: string; rank: number }[];
      }>();
    const before = await board();
    expect(before.entries.map((e) => e.user_id)).toContain(ada.id);
    const bobEntry = before.entries.find((e) => e.user_id === bob.id);
    const bobSummary = (await summary(bob)).body;
    const bobBoard = (await get('/functions/svc-leaderboard?period=total&metric=gpt', bob.accessToken)).json<{
      me: { rank: number };
    }>().me;
    expect(bobBoard.rank).toBe(2);
    expect(Object.values(await rowsOf(ada.id)).reduce((a, b) => a + b, 0)).toBeGreaterThan(10);

    expect((await get(`/badge/${ada.id}.svg`)).body).toMatch(/>[\d.]+K? this week</);
    const res = await del(ada, { password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted: true, user_id: ada.id });

    // Every table: no row of the user.
    const left = await rowsOf(ada.id);
    expect(Object.entries(left).filter(([, n]) => n > 0)).toEqual([]);

    // No credential of theirs works.
    expect((await summary(ada)).statusCode).toBe(401);
    expect((await get('/functions/svc-public-visibility', ada.accessToken)).statusCode).toBe(401);
    expect((await ingest(t, adaLaptop.token, hours('2026-10-29', 1, 'gpt-5'))).statusCode).toBe(401);
    expect((await get('/functions/svc-public-view-profile', shareToken)).statusCode).toBe(401);
    const rt = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=refresh_token',
      payload: { refresh_token: ada.refreshToken },
    });
    expect(rt.statusCode).toBe(400);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: ada.email, password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(400);
    expect((await get(`/functions/svc-leaderboard-profile?user_id=${ada.id}&period=total`)).statusCode).toBe(403);
    const neutral = await get(`/badge/00000000-0000-4000-8000-000000000000.svg`);
    const badge = await get(`/badge/${ada.id}.svg`);
    expect([badge.statusCode, badge.body]).toEqual([200, neutral.body]);
    expect(badge.body).toContain('not public');
    expect((await get(`/card/${ada.id}.svg`)).body).toBe(
      (await get(`/card/00000000-0000-4000-8000-000000000000.svg`)).body,
    );

    // The current snapshot stops showing them at once; the next one is computed without them.
    const now = await board();
    expect(now.entries.map((e) => e.user_id)).not.toContain(ada.id);
    expect(now.entries.some((e) => e.user_id === null)).toBe(false);
    expect(now.entries.find((e) => e.user_id === bob.id)).toEqual(bobEntry);
    expect((await refresh()).statusCode).toBe(200);
    const next = await board();
    expect(next.total_entries).toBe(1);
    expect(next.entries).toEqual([{ ...bobEntry, rank: 1 }]);

    // The other user's figures are unchanged (their rank moves up in the next snapshot).
    expect((await summary(bob)).body).toBe(bobSummary);
    expect(
      (await get('/functions/svc-leaderboard?period=total&metric=gpt', bob.accessToken)).json<{ me: unknown }>().me,
    ).toEqual({ ...bobBoard, rank: 1 });
    expect(Object.values(await rowsOf(bob.id)).reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
  });

  it('an account without a password confirms with the typed words', async () => {
    const now = t.clock.now();
    const id = '0b7c7a3e-5f0e-4e4c-9d59-7f2a0c1e0001';
    await seedUser(t.db, id, now, { external_id: 'https://idp.example|sub-1' });
    // A live session for the token (a JWT of an ended session is refused).
    await t.db.kysely
      .insertInto('refresh_tokens')
      .values({
        token_hash: 'oidc-test-hash',
        user_id: id,
        session_id: 'oidc-test',
        created_at: now,
        expires_at: now + 3_600_000,
      })
      .execute();
    const { token } = await new JwtService(TEST_SECRETS.JWT_SECRET, 3600).sign(
      { sub: id, email: null, sessionId: 'oidc-test' },
      now,
    );
    const user: TestUser = { id, email: '', accessToken: token, refreshToken: '' };
    expect((await del(user, {})).statusCode).toBe(400);
    expect((await del(user, { confirm: 'delete my acount' })).statusCode).toBe(400);
    expect((await del(user, { password: 'anything' })).statusCode).toBe(400);
    expect((await rowsOf(id)).users).toBe(1);
    expect((await del(user, { confirm: 'delete my account' })).statusCode).toBe(200);
    expect((await rowsOf(id)).users).toBe(0);
    expect((await get('/functions/svc-public-visibility', token)).statusCode).toBe(401);
  });

  it("another server process on the database forgets the deleted account's credentials at once (peer message)", async () => {
    // Two apps on one database, linked as the processes of one server are (the primary relays their word).
    const handlers: ((m: PeerMessage) => void)[][] = [[], []];
    const peer = (mine: 0 | 1): Peers => ({
      tell: (m) => handlers[1 - mine]?.forEach((h) => h(m)),
      listen: (h) => {
        handlers[mine]?.push(h);
        return () => undefined;
      },
    });
    let open: () => Promise<Db>;
    let drop: () => Promise<void>;
    if (testDatabaseUrl) {
      const url = testDatabaseUrl;
      const schema = `t_${randomBytes(6).toString('hex')}`;
      open = () => openPostgres(url, 3, schema);
      drop = () => dropTestSchema(schema);
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-delete-'));
      open = async () => openSqlite(path.join(dir, 'tokentally.db'));
      drop = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    const clock = new ManualClock(T0);
    const appOn = async (db: Db, peers: Peers) =>
      createApp({ config: testConfig(), db, clock, logger: capturingLogger([]), peers });
    const a = await appOn(await open(), peer(0));
    const b = await appOn(await open(), peer(1));
    try {
      const onA = { ...t, app: a.app } as TestApp;
      const ada = await signUp(onA, undefined, PASSWORD);
      const device = await issueDevice(onA, ada);
      // B remembers the device token and the account behind the JWT.
      const uploadOnB = () =>
        b.app.inject({
          method: 'POST',
          url: '/functions/svc-ingest',
          headers: bearer(device.token),
          payload: { hourly: hours('2026-10-30', 1, 'gpt-5') },
        });
      const readOnB = () =>
        b.app.inject({
          method: 'GET',
          url: '/functions/svc-usage-summary?from=2026-10-01&to=2026-10-31',
          headers: bearer(ada.accessToken),
        });
      expect((await uploadOnB()).statusCode).toBe(200);
      expect((await readOnB()).statusCode).toBe(200);
      const res = await a.app.inject({
        method: 'POST',
        url: '/functions/svc-account-delete',
        headers: bearer(ada.accessToken),
        payload: { password: PASSWORD },
      });
      expect(res.statusCode, res.body).toBe(200);
      // Same instant (the clock does not move): only the peer message can have made B forget.
      expect((await uploadOnB()).statusCode).toBe(401);
      expect((await readOnB()).statusCode).toBe(401);
    } finally {
      await a.close();
      await b.close();
      await drop();
    }
  });
});
