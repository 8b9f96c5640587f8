/**
 * @fileoverview Builds the real app over a real database for tests: in-memory SQLite by default,
 * or PostgreSQL in a schema of its own when TEST_DATABASE_URL is set (dropped on close, so runs
 * can repeat). Config is built in code: cheap password hashing, high rate limits, jobs off.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createApp, type AppDeps, type TokentallyApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openPostgres, openSqlite, quoteIdent, type Db, type PostgresDb, type SqliteDb } from '../../src/db/connect.js';
import type { Logger } from 'pino';
import { createLogger } from '../../src/logger.js';

export const TEST_SECRETS = {
  SERVICE_ROLE_KEY: 'tt_service_test_' + 'k'.repeat(32),
  JWT_SECRET: 'test-jwt-secret-' + 's'.repeat(40),
  ANON_KEY: 'tt_anon_test_key',
};

/** 2026-11-01T12:00:00Z: the fixed "now" of every test unless it moves the clock. */
export const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);

/** The PostgreSQL the tests run on; unset or empty (as `.ci/run`'s SQLite pass sets it): SQLite. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

/**
 * TEST_SQLITE_FILE=1: every SQLite test database a file, so every upload is written on the ingest
 * writer thread, as in production. Without it a test database is in memory unless the test asks
 * for a file; an in-memory database writes its groups on the app's thread through the thread's
 * own steps (packed, cloned, joined, answered as data: src/ingest/sqlite/group-runner.ts), so the
 * worker itself is what only the file tests run.
 */
const sqliteFiles = process.env.TEST_SQLITE_FILE === '1';
export const engine = testDatabaseUrl ? 'postgres' : 'sqlite';

export interface TestApp extends TokentallyApp {
  clock: ManualClock;
  db: Db;
  config: Config;
  logs: string[];
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: ManualClock;
  /**
   * On the SQLite pass, a database file (in a folder of its own, removed on close) instead of an
   * in-memory database: uploads are then written on the ingest writer thread, as in production.
   */
  sqliteFile?: boolean;
  /** Word from the server's other processes, for tests of what one process tells the others. */
  peers?: AppDeps['peers'];
  /** The app's test hooks (e.g. to hold a credential lookup). */
  hooks?: AppDeps['hooks'];
}

export async function openTestDb(
  options: { sqliteFile?: boolean } = {},
): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (!testDatabaseUrl && (options.sqliteFile ?? sqliteFiles)) return openSqliteFileDb();
  if (!testDatabaseUrl) return { db: openSqlite(':memory:'), drop: async () => undefined };
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres(testDatabaseUrl, 5, schema);
  return {
    db,
    drop: () => dropTestSchema(schema),
  };
}

/** A SQLite database file in a temporary folder of its own; `drop` removes the folder (close the database first). */
export function openSqliteFileDb(): { db: SqliteDb; drop: () => Promise<void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-test-'));
  return {
    db: openSqlite(path.join(dir, 'tokentally.db')),
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * For a describe block that runs on PostgreSQL only: opens a test schema before its tests and
 * closes and drops it after them; the returned function gives the database inside a test.
 */
export function postgresTestDb(): () => PostgresDb {
  let db: PostgresDb | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await openTestDb();
    if (opened.db.dialect !== 'postgres') throw new Error('expected TEST_DATABASE_URL to name a PostgreSQL database');
    db = opened.db;
    drop = opened.drop;
  });
  afterAll(async () => {
    await db?.kysely.destroy();
    await drop?.();
  });
  return () => {
    if (db === undefined) throw new Error('the PostgreSQL test database is not open yet');
    return db;
  };
}

/** Drops a test's PostgreSQL schema and everything in it. */
export async function dropTestSchema(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  } finally {
    await admin.end();
  }
}

/** A logger whose lines are appended to `logs`. */
export function capturingLogger(logs: string[]): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  return createLogger('info', sink);
}

/** The scrypt cost of test apps: far below the floor the environment may set (config.ts), so set in code. */
export const TEST_SCRYPT_COST = 1024;

/** The configuration every test app uses (cheap hashing, high limits, jobs off), with `env` on top. */
export function testConfig(env: Record<string, string> = {}): Config {
  const config = loadConfig({
    ...TEST_SECRETS,
    DATA_DIR: '/nonexistent-tokentally-test-dir',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    RATE_LIMIT_DEVICES_PER_MINUTE: '100000',
    RATE_LIMIT_EXCHANGE_PER_MINUTE: '100000',
    INGEST_RATE_PER_MINUTE: '100000',
    INGEST_BURST: '100000',
    JOBS_ENABLED: 'false',
    // Uploads do not start leaderboard refreshes in tests unless a test asks for it.
    LEADERBOARD_FRESH_SECONDS: '0',
    LOG_LEVEL: 'info',
    ...env,
  });
  return env.PASSWORD_SCRYPT_COST ? config : { ...config, auth: { ...config.auth, scryptCost: TEST_SCRYPT_COST } };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(options.env);
  const clock = options.clock ?? new ManualClock(T0);
  const logs: string[] = [];
  const { db, drop } = await openTestDb(options.sqliteFile === undefined ? {} : { sqliteFile: options.sqliteFile });
  const built = await createApp({
    config,
    db,
    clock,
    logger: capturingLogger(logs),
    ...(options.peers ? { peers: options.peers } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
  return {
    ...built,
    clock,
    db,
    config,
    logs,
    close: async () => {
      await built.close();
      await drop();
    },
  };
}
