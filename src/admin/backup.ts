/**
 * @fileoverview `npm run admin -- backup <file>`: a consistent copy of the SQLite database while the
 * server runs. `VACUUM INTO` copies what one read transaction sees (WAL mode: writers go on meanwhile,
 * and the copy never restarts however busy they are, unlike the page-by-page backup API), compacted,
 * as a file with no -wal beside it, readable by its owner only (0600). On PostgreSQL the tool for this is pg_dump (docs/deploy.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/connect.js';
import { vacuumInto } from '../db/queries/database.js';

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
  const exists = { output: `${target} exists; name a new file`, exitCode: 1 };
  if (fs.existsSync(target)) return exists;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // The copy holds password and token hashes: it is created here, empty and 0600 (no umask widens
  // that), and `VACUUM INTO` fills it, keeping its mode. O_EXCL: a file or link that appeared since
  // the check above is not written through.
  let fd: number;
  try {
    fd = fs.openSync(target, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return exists;
    throw error;
  }
  const started = performance.now();
  try {
    fs.fchmodSync(fd, 0o600);
    vacuumInto(db, target);
  } catch (error) {
    fs.rmSync(target, { force: true });
    throw error;
  } finally {
    fs.closeSync(fd);
  }
  const bytes = fs.statSync(target).size;
  const ms = Math.round(performance.now() - started);
  return {
    output: `copied the database to ${target} (${bytes} bytes, ${ms} ms); keep DATA_DIR/secrets.json (or your secret settings) with it, or the copy's tokens and sessions will not verify`,
    exitCode: 0,
  };
}
