/**
 * @fileoverview Opens the database: the embedded SQLite file by default, PostgreSQL when configured.
 * Both hand back a `Db` whose Kysely instance returns every integer as bigint.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { DEFAULT_SQLITE_BUSY_TIMEOUT_MS, type DatabaseConfig } from '../config.js';
import { Mutex } from './mutex.js';
import { WaitingSqliteDialect } from './sqlite-dialect.js';
import type { Database } from './schema.js';

interface DbBase {
  readonly kysely: Kysely<Database>;
  /** Serialises write transactions on SQLite's single connection; a no-op guard on PostgreSQL. */
  readonly writeLock: Mutex;
  close(): Promise<void>;
}

export interface SqliteDb extends DbBase {
  readonly dialect: 'sqlite';
  readonly sqlite: BetterSqlite3.Database;
  /** How long a write waits for another connection's write lock (SQLITE_BUSY_TIMEOUT_MS), then 503. */
  readonly busyTimeoutMs: number;
}

export interface PostgresDb extends DbBase {
  readonly dialect: 'postgres';
  readonly pool: pg.Pool;
}

export type Db = SqliteDb | PostgresDb;

/**
 * What a query function takes, first, unless it needs the driver or the dialect (then `Db`): the
 * Kysely handle (`db.kysely`) or a transaction of it.
 */
export type Queryable = Kysely<Database>;

const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;

function parseBigInt(text: string): bigint {
  // Sums of int8 columns arrive as numeric; they are whole numbers in this schema.
  const dot = text.indexOf('.');
  return BigInt(dot === -1 ? text : text.slice(0, dot));
}

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_INT8_OID || oid === PG_NUMERIC_OID) return parseBigInt;
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
} as pg.CustomTypesConfig;

/** What a caller may be told about the connections it does not hold at the moment. */
export interface ConnectionEvents {
  /**
   * PostgreSQL ended a connection while it sat idle in the pool (a restart, a failover,
   * pg_terminate_backend, an idle timeout on the way). The pool has already dropped it; the next
   * query opens another. Only the database's message is passed on: the error itself carries the
   * client and its connection parameters.
   */
  readonly idleConnectionLost?: (reason: string) => void;
}

/** Opens the configured database. Migrations are run separately (db/migrate.ts). */
export async function openDatabase(config: DatabaseConfig, events: ConnectionEvents = {}): Promise<Db> {
  if (config.kind === 'sqlite') return openSqlite(config.file, config.busyTimeoutMs);
  return openPostgres(config.url, config.poolSize, config.schema, events);
}

export function openSqlite(file: string, busyTimeoutMs = DEFAULT_SQLITE_BUSY_TIMEOUT_MS): SqliteDb {
  const sqlite = openSqliteHandle(file);
  const kysely = new Kysely<Database>({ dialect: new WaitingSqliteDialect({ database: sqlite }, busyTimeoutMs) });
  return {
    dialect: 'sqlite',
    sqlite,
    busyTimeoutMs,
    kysely,
    writeLock: new Mutex(),
    close: once(() => kysely.destroy()), // closes the better-sqlite3 handle too
  };
}

/**
 * One better-sqlite3 connection to `file` as every connection of the server opens it: the app's own
 * and the ingest writer thread's (src/ingest/sqlite/thread/thread.ts).
 */
export function openSqliteHandle(file: string): BetterSqlite3.Database {
  if (file !== ':memory:') createPrivately(file);
  const sqlite = new BetterSqlite3(file);
  sqlite.defaultSafeIntegers(true);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // No waiting inside SQLite (it would sleep with the event loop stopped): a write that finds the
  // lock taken fails at once and is tried again on a timer (db/sqlite-busy.ts), up to busyTimeoutMs.
  sqlite.pragma('busy_timeout = 0');
  if (file !== ':memory:') restrictFiles(file);
  return sqlite;
}

/**
 * The database holds password hashes and token hashes: its folder is created 0700 and the file 0600
 * before SQLite opens it (SQLite gives its -wal and -shm files the database file's mode).
 */
function createPrivately(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  restrictFiles(file);
}

/** Narrows the database file and its companions to 0600 (files left by an older version included). */
function restrictFiles(file: string): void {
  for (const each of [file, `${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(each)) fs.chmodSync(each, 0o600);
  }
}

export async function openPostgres(
  url: string,
  poolSize: number,
  schema?: string,
  events: ConnectionEvents = {},
): Promise<PostgresDb> {
  const options = schema ? `-c search_path=${quoteIdent(schema)}` : undefined;
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    } finally {
      await admin.end();
    }
  }
  // Pipelined: a query is sent as soon as it is made, not when the one before it is answered. Each
  // still runs in order in its own protocol sync, so a caller that awaits each query (Kysely does)
  // sees no difference; the ingest writer sends a group's read right behind BEGIN and its COMMIT
  // right behind its writes, two round trips a group instead of four (docs/decisions.md, "Ingest on
  // PostgreSQL").
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: pgTypes,
    pipeline: true,
    ...(options ? { options } : {}),
  });
  // Without a listener, an idle connection's error is an 'error' event nobody handles: the
  // process ends. With one, pg-pool drops the connection and carries on.
  pool.on('error', (error) => events.idleConnectionLost?.(error.message));
  // No JIT: the app's statements run for milliseconds, and compiling one (which PostgreSQL does
  // whenever a plan's estimated cost passes jit_above_cost, as a year's read of a team can) took
  // 15–20 ms more than the statement's whole run (docs/decisions.md, "A team's long windows"). Set
  // when a connection opens, ahead of its first query (a startup option would be refused by
  // poolers such as PgBouncer; a server without JIT refuses the SET, which changes nothing).
  pool.on('connect', (client) => {
    client.query('SET jit = off').catch(() => undefined);
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    dialect: 'postgres',
    pool,
    kysely,
    writeLock: new Mutex(),
    close: once(() => kysely.destroy()), // ends the pool
  };
}

/** Makes close() safe to call more than once. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`unsafe identifier ${name}`);
  return `"${name}"`;
}
