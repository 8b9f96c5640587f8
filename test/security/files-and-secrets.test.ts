/**
 * Files and secrets: the data folder is private (0700, an existing one narrowed at start), the SQLite database and its -wal/-shm files
 * 0600; the scrypt cost has a floor the environment cannot go under; a short JWT_SECRET is refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_SCRYPT_COST, loadConfig, MIN_SCRYPT_COST } from '../../src/config.js';
import { openSqlite } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestApp, engine } from '../helpers/app.js';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('data files', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates DATA_DIR 0700 and the SQLite database, -wal and -shm 0600, whatever the umask', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-files-'));
    dirs.push(root);
    const dataDir = path.join(root, 'data');
    const file = path.join(dataDir, 'tokentally.db');
    const umask = process.umask(0o022);
    try {
      const db = openSqlite(file);
      await migrateToLatest(db);
      expect(mode(dataDir)).toBe(0o700);
      for (const each of [file, `${file}-wal`, `${file}-shm`]) expect(mode(each), each).toBe(0o600);
      await db.close();
    } finally {
      process.umask(umask);
    }
  });

  it('narrows a database left world-readable by an older version', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-files-'));
    dirs.push(root);
    const file = path.join(root, 'tokentally.db');
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const db = openSqlite(file);
    await migrateToLatest(db);
    expect(mode(file)).toBe(0o600);
    await db.close();
  });

  it(`narrows an existing DATA_DIR to 0700 at start (${engine})`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-files-'));
    dirs.push(dataDir);
    fs.chmodSync(dataDir, 0o755);
    const t = await createTestApp({ env: { DATA_DIR: dataDir } });
    try {
      expect(mode(dataDir)).toBe(0o700);
    } finally {
      await t.close();
    }
  });
});

describe('secret settings', () => {
  const base = { DATA_DIR: '/nonexistent' };

  it('scrypt: 2^17 by default, and the environment cannot go below 2^15', () => {
    expect(DEFAULT_SCRYPT_COST).toBe(2 ** 17);
    expect(loadConfig(base).auth.scryptCost).toBe(2 ** 17);
    expect(loadConfig({ ...base, PASSWORD_SCRYPT_COST: String(MIN_SCRYPT_COST) }).auth.scryptCost).toBe(2 ** 15);
    expect(() => loadConfig({ ...base, PASSWORD_SCRYPT_COST: '1024' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PASSWORD_SCRYPT_COST: '16384' })).toThrow(/PASSWORD_SCRYPT_COST/);
  });

  it('refuses a JWT_SECRET shorter than 32 bytes', () => {
    expect(() => loadConfig({ ...base, JWT_SECRET: 'short secret' })).toThrow(/JWT_SECRET must be at least 32 bytes/);
    expect(loadConfig({ ...base, JWT_SECRET: 'x'.repeat(32) }).secrets.jwtSecret).toHaveLength(32);
  });
});
