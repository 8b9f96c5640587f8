/**
 * @fileoverview Statements about the database itself rather than its tables: where a PostgreSQL
 * pool points (its database and schema, which name what separate instances on it share), and a
 * consistent copy of a SQLite database (the admin tool's backup).
 */
import type { PostgresDb, SqliteDb } from '../connect.js';

/** The schema the pool's connections use (their search_path's first). */
export async function currentSchema(db: PostgresDb): Promise<string | undefined> {
  return (await db.pool.query<{ name: string }>('select current_schema() as name')).rows[0]?.name;
}

/** The database and schema the pool's connections use. */
export async function currentDatabaseAndSchema(db: PostgresDb): Promise<{ db: string; schema: string } | undefined> {
  return (
    await db.pool.query<{ db: string; schema: string }>('select current_database() as db, current_schema() as schema')
  ).rows[0];
}

/**
 * Copies the database into `file` (which must exist, empty: its mode is kept) with `VACUUM INTO`:
 * what one read transaction sees, compacted, while writers go on (WAL mode).
 */
export function vacuumInto(db: SqliteDb, file: string): void {
  db.sqlite.prepare('VACUUM INTO ?').run(file);
}
