/**
 * Refresh single flight: in one process and across two server processes sharing one database (two
 * apps: two pools on one PostgreSQL schema, or two connections on one SQLite file), with a test
 * hook holding the first refresh open.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type TokentallyApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { openPostgres, openSqlite, type Db } from '../../src/db/connect.js';
import { createLogger } from '../../src/logger.js';
import type { LeaderboardHooks } from '../../src/services/leaderboard.js';
import { bearer, ingest, issueDevice, signUp } from '../helpers/actors.js';
import { dropTestSchema, engine, T0, testConfig, TEST_SECRETS, testDatabaseUrl, type TestApp } from '../helpers/app.js';

const config = testConfig({
  RATE_LIMIT_AUTH_PER_MINUTE: '30',
  RATE_LIMIT_EXCHANGE_PER_MINUTE: '30',
  INGEST_RATE_PER_MINUTE: '60',
  INGEST_BURST: '20',
});
const quiet = () => createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));

async function appOn(db: Db, hooks: LeaderboardHooks): Promise<TestApp> {
  const clock = new ManualClock(T0);
  const built: TokentallyApp = await createApp({ config, db, clock, logger: quiet(), hooks: { leaderboard: hooks } });
  return { ...built, clock, db, config, logs: [] };
}

/** A hook that holds the first refresh until released and counts refreshes that computed. */
function holdFirst() {
  let release: () => void = () => undefined;
  let entered: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (entered = resolve));
  const state = { calls: 0 };
  const hooks: LeaderboardHooks = {
    onRefreshLocked: async () => {
      state.calls += 1;
      if (state.calls === 1) {
        entered();
        await held;
      }
    },
  };
  return { hooks, started, release: () => release(), state };
}

const refresh = (t: TestApp, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/functions/svc-leaderboard-refresh${query}`,
    headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
  });

async function seed(t: TestApp): Promise<void> {
  const user = await signUp(t);
  const device = await issueDevice(t, user);
  expect(
    (await ingest(t, device.token, [{ hour_start: '2026-11-01T10:00:00Z', model: 'gpt-5', total_tokens: 5 }]))
      .statusCode,
  ).toBe(200);
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`leaderboard refresh single flight (${engine})`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function singleApp(hooks: LeaderboardHooks): Promise<TestApp> {
    if (!testDatabaseUrl) {
      const t = await appOn(openSqlite(':memory:'), hooks);
      cleanups.push(() => t.close());
      return t;
    }
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const t = await appOn(await openPostgres(testDatabaseUrl, 5, schema), hooks);
    cleanups.push(async () => {
      await t.close();
      await dropTestSchema(schema);
    });
    return t;
  }

  it('a refresh asked for while one runs waits for it and answers its result (one process)', async () => {
    const gate = holdFirst();
    const t = await singleApp(gate.hooks);
    await seed(t);
    const first = refresh(t);
    await gate.started;
    const second = refresh(t);
    const weekOnly = refresh(t, '?period=week');
    await settle(100);
    gate.release();
    const [a, b, c] = await Promise.all([first, second, weekOnly]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(c.json()).toEqual(a.json());
    expect(gate.state.calls).toBe(1);
    // Once it finished, a new request refreshes again.
    expect((await refresh(t)).statusCode).toBe(200);
    expect(gate.state.calls).toBe(2);
  });

  /** Two apps on one database, as two server processes would be. */
  async function twoApps(hooksA: LeaderboardHooks, hooksB: LeaderboardHooks): Promise<[TestApp, TestApp]> {
    if (!testDatabaseUrl) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-refresh-'));
      const file = path.join(dir, 'tokentally.db');
      const a = await appOn(openSqlite(file), hooksA);
      const b = await appOn(openSqlite(file), hooksB);
      cleanups.push(async () => {
        await a.close();
        await b.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
      return [a, b];
    }
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const a = await appOn(await openPostgres(testDatabaseUrl, 5, schema), hooksA);
    const b = await appOn(await openPostgres(testDatabaseUrl, 5, schema), hooksB);
    cleanups.push(async () => {
      await a.close();
      await b.close();
      await dropTestSchema(schema);
    });
    return [a, b];
  }

  it('two server processes on one database: the second waits for the first and answers the same result', async () => {
    const gateA = holdFirst();
    const gateB = holdFirst();
    const [a, b] = await twoApps(gateA.hooks, gateB.hooks);
    await seed(a);
    const first = refresh(a);
    await gateA.started;
    let secondDone = false;
    const second = refresh(b).then((res) => {
      secondDone = true;
      return res;
    });
    await settle(300);
    expect(secondDone).toBe(false); // waiting for the advisory lock (PostgreSQL) or the lease (SQLite)
    gateA.release();
    const [ra, rb] = await Promise.all([first, second]);
    expect(ra.statusCode).toBe(200);
    expect(rb.statusCode).toBe(200);
    expect(rb.json()).toEqual(ra.json());
    expect(gateB.state.calls).toBe(0); // B never computed
    const board = await b.app.inject({ method: 'GET', url: '/functions/svc-leaderboard?period=week' });
    expect(board.json().total_entries).toBe(1);
  });

  it.skipIf(Boolean(testDatabaseUrl))(
    'SQLite: a lease left by a process that died blocks refreshes only until it runs out',
    async () => {
      const t = await singleApp({});
      await seed(t);
      const lease = (expiresAt: number) =>
        t.db.kysely
          .insertInto('leaderboard_refresh_lease')
          .values({ id: 1, holder: 'a process that died', expires_at: expiresAt })
          .execute();
      await lease(t.clock.now() + 60_000);
      let done = false;
      const waiting = refresh(t).then((res) => {
        done = true;
        return res;
      });
      await settle(150);
      expect(done).toBe(false);
      t.clock.advance(60_001);
      const res = await waiting;
      expect(res.statusCode).toBe(200);
      // Given back when done: the next refresh does not wait.
      expect(await t.db.kysely.selectFrom('leaderboard_refresh_lease').selectAll().execute()).toEqual([]);
      expect((await refresh(t)).statusCode).toBe(200);
    },
  );
});
