import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { resolveSecrets } from '../../src/security/secrets.js';
import { engine, openTestDb } from '../helpers/app.js';

describe(`server secrets (${engine})`, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('uses configured secrets as they are', async () => {
    const { db, drop } = await openTestDb();
    cleanups.push(async () => {
      await db.close();
      await drop();
    });
    const config = loadConfig({
      SERVICE_ROLE_KEY: 's',
      JWT_SECRET: 'j'.repeat(32),
      ANON_KEY: 'a',
      DATA_DIR: '/nonexistent',
    });
    expect(await resolveSecrets(config, db, 0)).toEqual({
      serviceRoleKey: 's',
      jwtSecret: 'j'.repeat(32),
      anonKey: 'a',
    });
  });

  it('generates missing secrets once and keeps them (file on SQLite, database on PostgreSQL)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-secrets-'));
    const { db, drop } = await openTestDb();
    cleanups.push(async () => {
      await db.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const config = loadConfig({ DATA_DIR: dataDir, ANON_KEY: 'given' });
    const { migrateToLatest } = await import('../../src/db/migrate.js');
    await migrateToLatest(db);
    const first = await resolveSecrets(config, db, 0);
    expect(first.serviceRoleKey).toMatch(/^tt_service_[A-Za-z0-9_-]{43}$/);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(64);
    expect(first.anonKey).toBe('given');
    const second = await resolveSecrets(config, db, 1);
    expect(second).toEqual(first);
    const file = path.join(dataDir, 'secrets.json');
    if (db.dialect === 'sqlite') {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
        serviceRoleKey: first.serviceRoleKey,
        jwtSecret: first.jwtSecret,
      });
    } else {
      expect(fs.existsSync(file)).toBe(false);
      const rows = await db.kysely.selectFrom('server_secrets').select('name').orderBy('name').execute();
      expect(rows.map((r) => r.name)).toEqual(['jwtSecret', 'serviceRoleKey']);
    }
  });
});
