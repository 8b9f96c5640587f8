/**
 * The PostgreSQL pool outlives the connections it holds: a connection the database ends while it
 * sits idle in the pool (a restart, a failover, an administrator's pg_terminate_backend, an idle
 * timeout on the way) is dropped and replaced, and reported by its message alone, never an
 * unhandled 'error' event that ends the process. Every connection it opens runs without JIT.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres, type PostgresDb } from '../../src/db/connect.js';
import { engine, testDatabaseUrl } from '../helpers/app.js';

describe.skipIf(engine !== 'postgres')('the PostgreSQL pool', () => {
  let db: PostgresDb | undefined;
  afterEach(async () => {
    await db?.close();
  });

  it('drops an idle connection the database ended, says why, and answers with a new one', async () => {
    const lost: string[] = [];
    db = await openPostgres(testDatabaseUrl as string, 2, undefined, { idleConnectionLost: (r) => lost.push(r) });
    const pidOf = async (on: PostgresDb) =>
      (await on.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    const pid = await pidOf(db);
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    // The idle connection learns of it from its socket.
    for (let i = 0; i < 100 && lost.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(lost).toEqual([expect.stringMatching(/terminating connection/)]);
    expect(db.pool.totalCount).toBe(0);
    const again = await pidOf(db);
    expect(again).toEqual(expect.any(Number));
    expect(again).not.toBe(pid);
  });

  it('opens every connection with JIT off, before its first query', async () => {
    db = await openPostgres(testDatabaseUrl as string, 3);
    const on = db;
    // three at once: three connections opened side by side, each asked first thing
    const seen = await Promise.all(
      [0, 1, 2].map(async () => (await on.pool.query<{ jit: string }>('SHOW jit')).rows[0]?.jit),
    );
    expect(seen).toEqual(['off', 'off', 'off']);
    expect(db.pool.totalCount).toBe(3);
  });
});
