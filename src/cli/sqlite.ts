/**
 * @fileoverview Read-only access to an agent's SQLite database without shipping native code:
 * Node's built-in `node:sqlite` where this Node has it (22.5+; unflagged from 22.13), else
 * better-sqlite3 when it happens to be installed (a repository checkout), else nothing — and
 * then a reader throws {@link SourceUnavailableError} with what to do, which the engine reports
 * on every sync (and `doctor` up front) instead of silently skipping the source.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface ReadonlyDb {
  /** All rows of a query as plain objects (integers as numbers). */
  all(sql: string, ...params: (string | number)[]): Record<string, unknown>[];
  close(): void;
}

export interface SqliteDriver {
  readonly name: 'node:sqlite' | 'better-sqlite3';
  open(file: string): ReadonlyDb;
}

/** A source exists on disk but this installation cannot read it. */
export class SourceUnavailableError extends Error {
  override name = 'SourceUnavailableError';
}

export const SQLITE_MISSING = `reading it needs Node ≥ 22.5 (built-in node:sqlite; this is Node ${process.versions.node}) or the better-sqlite3 package: upgrade Node (or \`npm install -g better-sqlite3\` beside tokentally) and sync again`;

interface NodeSqliteModule {
  DatabaseSync: new (
    file: string,
    options?: { readOnly?: boolean },
  ) => {
    prepare(sql: string): { all(...params: (string | number)[]): unknown[] };
    close(): void;
  };
}

interface BetterSqliteModule {
  new (
    file: string,
    options?: { readonly?: boolean; fileMustExist?: boolean },
  ): {
    prepare(sql: string): { all(...params: (string | number)[]): unknown[] };
    close(): void;
  };
}

function loadNodeSqlite(): SqliteDriver | undefined {
  // `node:sqlite` announces itself with an ExperimentalWarning on stderr: keep it off the user's terminal.
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/sqlite/i.test(text)) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    const mod = require('node:sqlite') as NodeSqliteModule;
    return {
      name: 'node:sqlite',
      open(file) {
        const db = new mod.DatabaseSync(file, { readOnly: true });
        return { all: (sql, ...p) => db.prepare(sql).all(...p) as Record<string, unknown>[], close: () => db.close() };
      },
    };
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emit;
  }
}

function loadBetterSqlite(): SqliteDriver | undefined {
  try {
    const Database = require('better-sqlite3') as BetterSqliteModule;
    return {
      name: 'better-sqlite3',
      open(file) {
        const db = new Database(file, { readonly: true, fileMustExist: true });
        return { all: (sql, ...p) => db.prepare(sql).all(...p) as Record<string, unknown>[], close: () => db.close() };
      },
    };
  } catch {
    return undefined;
  }
}

let cached: SqliteDriver | null | undefined;

/** The driver this process can use, or null when there is none (tests may force one with `TOKENTALLY_SQLITE`). */
export function sqliteDriver(force: string | undefined = process.env['TOKENTALLY_SQLITE']): SqliteDriver | null {
  if (force === 'none') return null;
  if (force === 'node:sqlite') return loadNodeSqlite() ?? null;
  if (force === 'better-sqlite3') return loadBetterSqlite() ?? null;
  if (cached === undefined) cached = loadNodeSqlite() ?? loadBetterSqlite() ?? null;
  return cached;
}
