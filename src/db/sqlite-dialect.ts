/**
 * @fileoverview Kysely's SQLite dialect with write transactions that take the database's write lock
 * when they begin (`BEGIN IMMEDIATE`).
 *
 * Kysely begins with a plain (deferred) `BEGIN`: the transaction reads from a snapshot and asks
 * for the write lock only at its first write. When another connection (another server process on
 * the same file) has committed in between, SQLite refuses that write at once with
 * SQLITE_BUSY_SNAPSHOT, without waiting in the busy handler. Taking the lock at `BEGIN` makes
 * the transaction wait its turn (up to the busy timeout) instead of failing half way.
 */
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
