import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtAppContext, describeDatabase, runAdminCommand } from '../../src/admin/commands.js';
import { listActiveEntitlements } from '../../src/db/queries/entitlements.js';
import { ingest, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

describe(`admin command line on a closed instance (${engine})`, () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('creates its first admin with create-user --admin, while sign-up is refused', async () => {
    t = await createTestApp({ env: { SIGNUP_MODE: 'closed' } });
    const run = (...argv: string[]) => runAdminCommand(builtAppContext(t, t.db, t.clock), argv);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: { email: 'boss@example.com', password: 'a long password' },
    });
    expect(refused.statusCode).toBe(403);
    const r = await run('create-user', 'boss@example.com', 'a long password', '--admin');
    expect(r.output).toMatch(/^created user [0-9a-f-]{36} <boss@example\.com> \(admin\)$/);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: 'boss@example.com', password: 'a long password' },
    });
    expect(signIn.json().user.app_metadata.role).toBe('admin');
  });
});

describe(`admin command line (${engine})`, () => {
  let t: TestApp;
  const run = (...argv: string[]) => runAdminCommand(builtAppContext(t, t.db, t.clock), argv);

  beforeEach(async () => {
    t = await createTestApp({ env: { PRICING_SOURCE_URL: 'http://127.0.0.1:9/prices.json' } }); // nothing listens there
  });
  afterEach(async () => t.close());

  it('shows the keys', async () => {
    const r = await run('keys');
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(
      `SERVICE_ROLE_KEY=${TEST_SECRETS.SERVICE_ROLE_KEY}\nJWT_SECRET=${TEST_SECRETS.JWT_SECRET}\nANON_KEY=${TEST_SECRETS.ANON_KEY}`,
    );
  });

  it('creates a user who can sign in', async () => {
    const r = await run('create-user', 'Admin@Example.com', 'a long password', '--name', 'Ada');
    expect(r.exitCode, r.output).toBe(0);
    // The instance's first account: its admin.
    expect(r.output).toMatch(/^created user [0-9a-f-]{36} <admin@example\.com> \(admin\)$/);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/token?grant_type=password',
      payload: { email: 'admin@example.com', password: 'a long password' },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user.user_metadata).toEqual({ display_name: 'Ada' });
    expect((await run('create-user', 'admin@example.com', 'a long password')).exitCode).toBe(1);
    expect((await run('create-user', 'x@example.com')).exitCode).toBe(2);
  });

  it('makes and revokes admins; the last enabled admin stays', async () => {
    const first = await signUp(t);
    const user = await signUp(t);
    const role = async (u: { accessToken: string }) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/auth/v1/user',
          headers: { authorization: `Bearer ${u.accessToken}` },
        })
      ).json().app_metadata.role;
    expect(await role(user)).toBe('user');
    expect(await run('make-admin', user.email)).toEqual({ output: `${user.id} is now an admin`, exitCode: 0 });
    expect(await role(user)).toBe('admin');
    expect(await run('revoke-admin', first.id)).toEqual({ output: `${first.id} is no longer an admin`, exitCode: 0 });
    expect(await role(first)).toBe('user');
    const last = await run('revoke-admin', user.email);
    expect(last.exitCode).toBe(1);
    expect(last.output).toContain('last admin');
    expect(await role(user)).toBe('admin');
    expect((await run('make-admin', 'nobody@example.com')).exitCode).toBe(2);
    const second = await run('create-user', 'second@example.com', 'a long password', '--admin', '--name', 'Bo');
    expect(second.output).toMatch(/^created user [0-9a-f-]{36} <second@example\.com> \(admin\)$/);
    expect((await run('create-user', 'third@example.com', 'a long password')).output).not.toContain('(admin)');
  });

  it('grants and revokes pro (entitlements read by getUserStatus)', async () => {
    const user = await signUp(t);
    const now = t.clock.now();
    expect((await run('grant-pro', user.email, '--days', '30')).output).toBe(
      `granted pro to ${user.id} until ${new Date(now + 30 * 86_400_000).toISOString()}`,
    );
    expect((await run('grant-pro', user.id)).output).toBe(`granted pro to ${user.id} with no end`);
    const active = await listActiveEntitlements(t.db.kysely, user.id, now);
    expect(active.map((e) => [e.source, e.expiresAt])).toEqual([
      ['manual', null],
      ['manual', now + 30 * 86_400_000],
    ]);
    expect(await listActiveEntitlements(t.db.kysely, user.id, now + 31 * 86_400_000)).toHaveLength(1);
    expect((await run('revoke-pro', user.email)).output).toBe(`revoked 2 pro grant(s) of ${user.id}; 0 in force`);
    expect(await listActiveEntitlements(t.db.kysely, user.id, now)).toEqual([]);
    expect((await run('grant-pro', 'nobody@example.com')).exitCode).toBe(2);
    expect((await run('grant-pro', user.email, '--days', '-3')).exitCode).toBe(2);
  });

  it('refreshes the leaderboard and syncs pricing through the service role', async () => {
    const user = await signUp(t);
    const device = await issueDevice(t, user);
    await ingest(t, device.token, [{ hour_start: '2026-11-01T10:00:00Z', model: 'gpt-5', total_tokens: 7 }]);
    const refreshed = await run('refresh-leaderboard', '--period', 'week');
    expect(refreshed.exitCode).toBe(0);
    expect(JSON.parse(refreshed.output)).toMatchObject({ success: true, results: [{ period: 'week', rows: 1 }] });
    expect((await run('refresh-leaderboard', '--period', 'year')).exitCode).toBe(1);
    const synced = await run('sync-pricing');
    expect(synced.exitCode).toBe(1); // the price source is unreachable: the action failed
    expect(JSON.parse(synced.output)).toMatchObject({
      success: false,
      updated: false,
      reason: expect.stringMatching(/unreachable/),
    });
  });

  it('names the database it opened, never a password', () => {
    expect(describeDatabase({ kind: 'sqlite', file: '/srv/tt/tokentally.db', busyTimeoutMs: 5000 })).toBe(
      'database: SQLite /srv/tt/tokentally.db',
    );
    expect(
      describeDatabase({ kind: 'postgres', url: 'postgres://tt:s3cret@db.example:5432/tokentally', poolSize: 10 }),
    ).toBe('database: PostgreSQL tt@db.example:5432/tokentally');
  });

  it('explains its usage', async () => {
    expect((await run()).exitCode).toBe(1);
    expect((await run('help')).output).toMatch(/^usage: npm run admin/);
    expect((await run('frobnicate')).exitCode).toBe(2);
  });

  it('backs up the SQLite database, and points to pg_dump on PostgreSQL', async () => {
    expect((await run('backup')).exitCode).toBe(2);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-admin-backup-'));
    try {
      const r = await run('backup', path.join(dir, 'copy.db'));
      if (engine === 'postgres') expect([r.exitCode, r.output]).toEqual([1, expect.stringContaining('pg_dump')]);
      else expect([r.exitCode, fs.existsSync(path.join(dir, 'copy.db'))]).toEqual([0, true]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(engine === 'postgres')('writes the backup 0600 under a permissive umask, never over a file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-admin-backup-'));
    const umask = process.umask(0o022);
    try {
      const copy = path.join(dir, 'copy.db');
      const r = await run('backup', copy);
      expect(r.exitCode, r.output).toBe(0);
      expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
      fs.writeFileSync(path.join(dir, 'other.db'), '', { mode: 0o644 });
      expect((await run('backup', path.join(dir, 'other.db'))).output).toContain('exists');
      fs.symlinkSync(path.join(dir, 'elsewhere.db'), path.join(dir, 'link.db'));
      expect((await run('backup', path.join(dir, 'link.db'))).exitCode).toBe(1);
      expect(fs.existsSync(path.join(dir, 'elsewhere.db'))).toBe(false);
    } finally {
      process.umask(umask);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
