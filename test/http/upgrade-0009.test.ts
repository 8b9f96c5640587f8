/**
 * Upgrading a database made before migration 0009 (both engines): the packed `usage_days` rows are
 * built from the stored rollup in exactly the text the ingest writers produce, the prefix table is
 * gone, and every local-day answer equals what a fresh install gives for the same uploads.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { migrateUpTo } from '../../src/db/migrate.js';
import { insertRefreshToken } from '../../src/db/queries/users.js';
import { JwtService } from '../../src/security/jwt.js';
import { bearer, ingest, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, openTestDb, T0, TEST_SECRETS, testConfig, type TestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/seed.js';

const bucket = (hour_start: string, source: string, model: string, input: number, output: number) => ({
  hour_start,
  source,
  model,
  input_tokens: input,
  output_tokens: output,
  total_tokens: input + output,
});
const BUCKETS = [
  bucket('2026-10-30T03:00:00Z', 'codex', 'gpt-5', 1_000_000, 2_000),
  bucket('2026-10-30T03:00:00Z', 'claude', 'claude-opus-4-1', 10_000, 2_000),
  bucket('2026-10-30T14:30:00Z', 'codex', 'gpt-5', 5, 7),
  bucket('2026-10-30T23:30:00Z', 'claude', 'claude-opus-4-1', 900, 100),
  bucket('2026-10-31T00:00:00Z', 'gemini', 'gemini-2.5-pro', 300, 3),
  bucket('2026-10-31T16:00:00Z', 'codex', 'o3', 42, 0),
];
const USER = '00000000-0000-4000-8000-000000000009';

const readAll = async (app: TestApp['app'], token: string) =>
  Promise.all(
    [
      '/functions/svc-usage-daily?from=2026-10-29&to=2026-11-01&tz=America/New_York',
      '/functions/svc-usage-daily?from=2026-10-29&to=2026-11-01&tz=Asia/Kolkata',
      '/functions/svc-usage-monthly?months=2&to=2026-11-01&tz=Pacific/Kiritimati',
      '/functions/svc-usage-heatmap?weeks=2&to=2026-11-01&tz=Europe/Berlin',
    ].map(async (url) => (await app.inject({ method: 'GET', url, headers: bearer(token) })).json()),
  );

describe(`upgrade across migration 0009 (${engine})`, () => {
  it('packs the stored half-hours into usage_days as the writers would, and answers as a fresh install', async () => {
    const fresh = await createTestApp();
    const freshUser = await signUp(fresh, 'fresh@example.com');
    expect((await ingest(fresh, (await issueDevice(fresh, freshUser)).token, BUCKETS)).statusCode).toBe(200);
    const expected = await readAll(fresh.app, freshUser.accessToken);
    const freshDays = await fresh.db.kysely.selectFrom('usage_days').select(['day', 'counts']).orderBy('day').execute();
    const freshRollup = await fresh.db.kysely.selectFrom('usage_rollup').selectAll().execute();
    const freshDaily = await fresh.db.kysely.selectFrom('usage_daily').selectAll().execute();
    await fresh.close();

    // A database at migration 0008 holding the same rollup (with a zero row, which packs to nothing) and daily rows.
    const { db, drop } = await openTestDb();
    await migrateUpTo(db, '2026_11_24_0008_ingest_events_by_device');
    const now = Date.UTC(2026, 10, 1, 12);
    await seedUser(db, USER, now, { email: 'old@example.com' });
    const zero = {
      hour_start: Date.parse('2026-10-29T08:00:00Z'),
      source: 'codex',
      model: 'gpt-5',
      input: 0n,
      cached_input: 0n,
      output: 0n,
      reasoning: 0n,
      total: 0n,
      billable: 0n,
    };
    await db.kysely
      .insertInto('usage_rollup')
      .values([...freshRollup.map((r) => ({ ...r, user_id: USER })), { user_id: USER, ...zero }])
      .execute();
    await db.kysely
      .insertInto('usage_daily')
      .values(freshDaily.map((r) => ({ ...r, user_id: USER })))
      .execute();

    const clock = new ManualClock(T0);
    const upgraded = await createApp({ config: testConfig(), db, clock });
    try {
      const days = await db.kysely
        .selectFrom('usage_days')
        .select(['day', 'counts'])
        .where('user_id', '=', USER)
        .orderBy('day')
        .execute();
      expect(days).toEqual(freshDays);
      const prefix = sql`select count(*) from usage_day_prefix`.execute(db.kysely);
      await expect(prefix).rejects.toThrow();
      await insertRefreshToken(db.kysely, {
        token_hash: 'upgrade-test',
        user_id: USER,
        session_id: 'upgrade-test',
        created_at: clock.now(),
        expires_at: clock.now() + 3_600_000,
      });
      const { token } = await new JwtService(TEST_SECRETS.JWT_SECRET, 3600).sign(
        { sub: USER, email: 'old@example.com', sessionId: 'upgrade-test' },
        clock.now(),
      );
      expect(await readAll(upgraded.app, token)).toEqual(expected);

      // Down again: the prefix table comes back from the rollup (row 48 is the whole day, row 8 the first four hours).
      await migrateUpTo(db, '2026_11_24_0008_ingest_events_by_device');
      const rows = await sql<{
        k: bigint | string;
        day: bigint | string;
        total: bigint | string;
      }>`select k, day, total from usage_day_prefix where k in (8, 48) order by day, k`.execute(db.kysely);
      const day = Date.UTC(2026, 9, 30) / 86_400_000;
      expect(rows.rows.map((r) => [Number(r.k), Number(r.day), BigInt(r.total)])).toEqual([
        [48, day - 1, 0n],
        [8, day, 1_014_000n],
        [48, day, 1_015_012n],
        [8, day + 1, 303n],
        [48, day + 1, 345n],
      ]);
    } finally {
      await upgraded.close();
      await drop();
    }
  });
});
