/**
 * `npm run admin -- backup <file>` copies the SQLite database while the server runs and takes
 * uploads; a fresh server started on the copy reads the same usage. (SQLite only: on PostgreSQL the
 * command points to pg_dump.)
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { engine, TEST_SECRETS } from '../helpers/app.js';
import { request, start, type Started } from '../helpers/server-process.js';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const LISTENING = /Tokentally listening on http:\/\/127\.0\.0\.1:(\d+)/;
const SERVICE = { authorization: `Bearer ${TEST_SECRETS.SERVICE_ROLE_KEY}` };

describe.skipIf(engine !== 'sqlite')('admin backup (sqlite)', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const fn of cleanup.splice(0)) fn();
  });

  function serverOn(dataDir: string): Started {
    const server = start({ DATA_DIR: dataDir, INGEST_BURST: '100000', INGEST_RATE_PER_MINUTE: '100000' });
    cleanup.push(() => void server.child.kill('SIGKILL'));
    return server;
  }

  it('copies the database while the server takes uploads; a server on the copy reads the same usage', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-backup-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const live = serverOn(path.join(dir, 'live'));
    const port = Number((await live.waitFor(LISTENING))[1]);

    const signup = await request(port, 'POST', '/auth/v1/signup', {
      email: 'kept@example.com',
      password: 'long enough',
    });
    const { access_token: jwt, user } = signup.json as { access_token: string; user: { id: string } };
    const issue = async (name: string) =>
      (
        (
          await request(
            port,
            'POST',
            '/functions/svc-device-token-issue',
            { user_id: user.id, device_name: name },
            SERVICE,
          )
        ).json as { token: string }
      ).token;
    const laptop = { authorization: `Bearer ${await issue('laptop')}` };
    const busy = { authorization: `Bearer ${await issue('busy')}` };
    const day = Date.UTC(2026, 9, 1);
    const hourly = Array.from({ length: 48 }, (_, i) => ({
      hour_start: new Date(day + i * 1_800_000).toISOString(),
      source: 'codex',
      model: 'gpt-5',
      input_tokens: 1000 + i,
      output_tokens: 10,
      total_tokens: 1010 + i,
    }));
    expect((await request(port, 'POST', '/functions/svc-ingest', { hourly }, laptop)).status).toBe(200);

    // Another device keeps uploading (another month) while the copy is made.
    let uploading = true;
    const background = (async () => {
      for (let k = 0; uploading; k += 1) {
        const r = await request(
          port,
          'POST',
          '/functions/svc-ingest',
          {
            hourly: [
              {
                hour_start: new Date(Date.UTC(2026, 8, 1) + (k % 200) * 1_800_000).toISOString(),
                source: 'claude',
                model: 'claude-sonnet-4',
                total_tokens: 5 + k,
              },
            ],
          },
          busy,
        );
        expect(r.status).toBe(200);
      }
    })();
    const copy = path.join(dir, 'copy.db');
    const env = {
      ...process.env,
      ...TEST_SECRETS,
      DATA_DIR: path.join(dir, 'live'),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    };
    const backup = await run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'backup', copy], {
      cwd: root,
      env,
    });
    expect(backup.stdout).toMatch(/^copied the database to .*copy\.db \(\d+ bytes, \d+ ms\)/);
    uploading = false;
    await background;
    // A second backup to the same file is refused rather than overwriting it.
    await expect(
      run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'backup', copy], { cwd: root, env }),
    ).rejects.toMatchObject({ code: 1 });

    const query = '/functions/svc-usage-summary?from=2026-10-01&to=2026-10-01&tz=UTC';
    const before = await request(port, 'GET', query, undefined, { authorization: `Bearer ${jwt}` });
    expect(before.status).toBe(200);

    // Restore: the copy becomes a fresh data directory's database (same secrets), served anew.
    const restoredDir = path.join(dir, 'restored');
    fs.mkdirSync(restoredDir);
    fs.copyFileSync(copy, path.join(restoredDir, 'tokentally.db'));
    live.child.kill('SIGKILL');
    const restored = serverOn(restoredDir);
    const restoredPort = Number((await restored.waitFor(LISTENING))[1]);
    const after = await request(restoredPort, 'GET', query, undefined, { authorization: `Bearer ${jwt}` });
    expect(after.status).toBe(200);
    expect(after.json).toEqual(before.json);
    expect((after.json as { totals: { total_tokens: string } }).totals.total_tokens).toBe(
      String(hourly.reduce((sum, b) => sum + b.total_tokens, 0)),
    );
  }, 120_000);
});
