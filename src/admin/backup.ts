/**
 * @fileoverview `npm run admin -- backup <file>`: a consistent copy of the SQLite database while the
 * server runs. `VACUUM INTO` copies what one read transaction sees (WAL mode: writers go on meanwhile,
 * and the copy never restarts however busy they are, unlike the page-by-page backup API), compacted,
 * as a file with no -wal beside it. On PostgreSQL the tool for this is pg_dump (docs/deploy.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/connect.js';

export interface BackupResult {
  output: string;
  exitCode: number;
}

export function backupDatabase(db: Db, file: string): BackupResult {
  if (db.dialect !== 'sqlite') {
    return {
      output: 'backup copies the SQLite database; on PostgreSQL use pg_dump (see docs/deploy.md, "Backup and restore")',
      exitCode: 1,
    };
  }
  const target = path.resolve(file);
  if (fs.existsSync(target)) return { output: `${target} exists; name a new file`, exitCode: 1 };
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const started = performance.now();
  db.sqlite.prepare('VACUUM INTO ?').run(target);
  const bytes = fs.statSync(target).size;
  const ms = Math.round(performance.now() - started);
  return {
    output: `copied the database to ${target} (${bytes} bytes, ${ms} ms); keep DATA_DIR/secrets.json (or your secret settings) with it, or the copy's tokens and sessions will not verify`,
    exitCode: 0,
  };
}
