/**
 * Leaderboard pages are cached per generation and identity revision: every change to a public
 * name, avatar or visibility must show on the next read — made through the API, by plain SQL (as
 * an operator or the admin command line would), or by another server process on the same database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { openPostgres, openSqlite, type Db } from '../../src/db/connect.js';
import type { LeaderboardEntryWire } from '../../src/services/leaderboard.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import {
  capturingLogger,
  createTestApp,
  dropTestSchema,
  engine,
  T0,
  testConfig,
  testDatabaseUrl,
  TEST_SECRETS,
  type TestApp,
} from '../helpers/app.js';

interface Board {
  entries: LeaderboardEntryWire[];
  me: LeaderboardEntryWire | null;
}

async function board(t: TestApp, token?: string): Promise<Board> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/functions/svc-leaderboard?period=week',
    headers: token ? bearer(token) : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Board>();
}

const setVisible = (t: TestApp, u: TestUser, enabled: boolean) =>
  t.app.inject({
    method: 'POST',
    url: '/functions/svc-public-visibility',
    headers: bearer(u.accessToken),
    payload: { enabled },
  });

const setName = (t: TestApp, u: TestUser, display_name: string) =>
  t.app.inject({
    method: 'PUT',
    url: '/auth/v1/user',
    headers: bearer(u.accessToken),
    payload: { data: { display_name } },
  });

/** One public user with usage, refreshed into the snapshot; answers the user. */
async function seedPublicUser(t: TestApp): Promise<TestUser> {
  const ada = await signUp(t);
  expect((await setName(t, ada, 'Ada')).statusCode).toBe(200);
  const device = await issueDevice(t, ada);
  expect(
    (await ingest(t, device.token, [{ hour_start: '2026-11-01T10:00:00Z', model: 'gpt-5', total_tokens: 300 }]))
      .statusCode,
  ).toBe(200);
  expect((await setVisible(t, ada, true)).statusCode).toBe(200);
  const refreshed = await t.app.inject({
    method: 'POST',
    url: '/functions/svc-leaderboard-refresh',
    headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
  });
  expect(refreshed.statusCode).toBe(200);
  return ada;
}

describe(`leaderboard identities are never served stale (${engine})`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a name change, a change by plain SQL and visibility turned off each show on the next read', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const ada = await seedPublicUser(t);
    // Read twice so the page and the identities are cached.
    for (let i = 0; i < 2; i++)
      expect((await board(t)).entries[0]).toMatchObject({ user_id: ada.id, display_name: 'Ada', is_public: true });
    expect((await board(t, ada.accessToken)).me).toMatchObject({ display_name: 'Ada' });

    expect((await setName(t, ada, 'Ada Lovelace')).statusCode).toBe(200);
    expect((await board(t)).entries[0]?.display_name).toBe('Ada Lovelace');
    expect((await board(t, ada.accessToken)).me?.display_name).toBe('Ada Lovelace');

    await sql`update users set avatar_url = ${'https://example.com/a.png'} where id = ${ada.id}`.execute(t.db.kysely);
    expect((await board(t)).entries[0]?.avatar_url).toBe('https://example.com/a.png');

    expect((await setVisible(t, ada, false)).statusCode).toBe(200);
    const hidden = await board(t);
    expect(hidden.entries[0]).toMatchObject({ user_id: null, display_name: null, avatar_url: null, is_public: false });
    expect(JSON.stringify(hidden)).not.toContain(ada.id);
    const profile = await t.app.inject({ method: 'GET', url: `/functions/svc-leaderboard-profile?user_id=${ada.id}` });
    expect(profile.statusCode).toBe(403);

    expect((await setVisible(t, ada, true)).statusCode).toBe(200);
    expect((await board(t)).entries[0]).toMatchObject({
      user_id: ada.id,
      display_name: 'Ada Lovelace',
      is_public: true,
    });
  });

  it('a change made by another server process on the same database shows on the next read', async () => {
    const { a, b } = await twoAppsOnOneDatabase();
    const ada = await seedPublicUser(a);
    for (let i = 0; i < 2; i++) expect((await board(a)).entries[0]).toMatchObject({ user_id: ada.id, is_public: true });

    expect((await setVisible(b, ada, false)).statusCode).toBe(200);
    expect((await board(a)).entries[0]).toMatchObject({ user_id: null, display_name: null, is_public: false });

    expect((await setVisible(b, ada, true)).statusCode).toBe(200);
    expect((await setName(b, ada, 'Countess')).statusCode).toBe(200);
    expect((await board(a)).entries[0]).toMatchObject({ user_id: ada.id, display_name: 'Countess', is_public: true });
  });

  /** Two apps, each with its own connection(s), on one SQLite file or one PostgreSQL schema. */
  async function twoAppsOnOneDatabase(): Promise<{ a: TestApp; b: TestApp }> {
    let open: () => Promise<Db>;
    let drop: () => Promise<void>;
    if (testDatabaseUrl) {
      const url = testDatabaseUrl;
      const schema = `t_${randomBytes(6).toString('hex')}`;
      open = () => openPostgres(url, 3, schema);
      drop = () => dropTestSchema(schema);
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-identities-'));
      open = async () => openSqlite(path.join(dir, 'tokentally.db'));
      drop = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    cleanups.push(drop);
    const clock = new ManualClock(T0);
    const config = testConfig();
    const appOn = async (db: Db): Promise<TestApp> => {
      const logs: string[] = [];
      const built = await createApp({ config, db, clock, logger: capturingLogger(logs) });
      cleanups.push(() => built.close());
      return { ...built, clock, db, config, logs };
    };
    const a = await appOn(await open());
    const b = await appOn(await open());
    return { a, b };
  }
});
