/**
 * @fileoverview DATA_DIR holds the SQLite database, secrets.json and pricing.json: it is created
 * 0700, and one that exists already (made by hand, by an older version, by a package) is narrowed to
 * 0700 at start, as the database file and secrets.json are narrowed to 0600.
 */
import fs from 'node:fs';

/**
 * Narrows an existing DATA_DIR to 0700; a missing one is left to be created (0700) when first
 * needed. Returns why it could not (the server does not own the folder), for a warning.
 */
export function restrictDataDir(dataDir: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!stat.isDirectory() || (stat.mode & 0o777) === 0o700) return undefined;
  try {
    fs.chmodSync(dataDir, 0o700);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPERM' || code === 'EACCES' || code === 'EROFS') return `${code}: not narrowed to 0700`;
    throw error;
  }
}
