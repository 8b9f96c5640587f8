/**
 * @fileoverview Hot reads that skip the query builder: fixed statement texts, prepared once per
 * SQLite connection (Kysely's driver prepares on every call) and named on PostgreSQL
 * (prepared-name.ts: each pooled connection parses and plans them once), answering rows as arrays.
 *
 * On SQLite they run directly on the connection: they do not wait for an open Kysely transaction
 * on it and may see its uncommitted writes. Callers use them for reads where that is harmless.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './connect.js';
import { preparedName } from './prepared-name.js';

export type Param = string | number | bigint | null | string[];

/** A statement in both dialects: SQLite text with named parameters `@p1, @p2, …`, PostgreSQL `$1, $2, …`. */
export interface RawStatement {
  readonly sqlite: string;
  readonly postgres: string;
  /**
   * PostgreSQL plans it for each call's values (an unnamed statement) instead of reusing a generic
   * plan: for long reads whose best plan depends on the values (how many members a team has, how
   * long a window is), where a generic plan's guesses (a few rows, so sort and group) cost far
   * more than planning does.
   */
  readonly planEachCall?: boolean;
}

const sqliteStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

export async function rawRows(db: Db, text: RawStatement, params: Param[]): Promise<unknown[][]> {
  if (db.dialect === 'sqlite') {
    let cache = sqliteStatements.get(db.sqlite);
    if (cache === undefined) {
      cache = new Map();
      sqliteStatements.set(db.sqlite, cache);
    }
    let stmt = cache.get(text.sqlite);
    if (stmt === undefined) {
      stmt = db.sqlite.prepare(text.sqlite).raw(true);
      cache.set(text.sqlite, stmt);
    }
    // Named parameters (@p1, @p2, …) so one value may appear twice.
    return stmt.all(Object.fromEntries(params.map((v, i) => [`p${i + 1}`, v]))) as unknown[][];
  }
  const res = await db.pool.query<unknown[]>({
    ...(text.planEachCall ? {} : { name: preparedName(text.postgres) }),
    text: text.postgres,
    values: params,
    rowMode: 'array',
  });
  return res.rows;
}
