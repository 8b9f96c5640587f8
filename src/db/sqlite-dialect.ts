/**
 * @fileoverview Kysely's SQLite dialect, made safe beside other connections on the same file
 * (other server processes):
 * - write transactions take the write lock when they begin (`BEGIN IMMEDIATE`). Kysely begins with
 *   a plain, deferred `BEGIN`: such a transaction reads from a snapshot and asks for the lock only
 *   at its first write, and when another connection committed in between SQLite refuses that write
 *   at once (SQLITE_BUSY_SNAPSHOT); taken at `BEGIN`, the lock is simply waited for;
 * - a statement that finds the lock taken is tried again after a short timer (sqlite-busy.ts), so
 *   waiting never blocks the event loop.
 */
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely';
import { whenUnlocked } from './sqlite-busy.js';

/** The connection, its statements retried while another connection holds the write lock. */
function waitingConnection(inner: DatabaseConnection, busyTimeoutMs: number): DatabaseConnection {
  return {
    executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
      whenUnlocked(() => inner.executeQuery<R>(query), busyTimeoutMs),
    streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => inner.streamQuery<R>(query, chunkSize),
  };
}

class WaitingSqliteDriver extends SqliteDriver {
  #waiting: DatabaseConnection | undefined;

  constructor(
    config: SqliteDialectConfig,
    private readonly busyTimeoutMs: number,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#waiting ??= waitingConnection(connection, this.busyTimeoutMs);
    return this.#waiting;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class WaitingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(
    config: SqliteDialectConfig,
    private readonly busyTimeoutMs: number,
  ) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new WaitingSqliteDriver(this.#config, this.busyTimeoutMs);
  }
}
