/**
 * Upgrading a database made before migration 0004 (both engines): usage stored while row triggers
 * kept the read models stays, the re-keyed `usage_daily` keeps its rows, and the first start
 * prices them (costs start at 0 and no price data is recorded), so the answers are what a fresh
 * install gives for the same uploads.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { migrateUpTo } from '../../src/db/migrate.js';
import { bearer, ingest, issueDevice, signUp } from '../helpers/actors.js';
import { ManualClock } from '../../src/clock.js';
import { JwtService } from '../../src/security/jwt.js';
import { insertRefreshToken } from '../../src/db/queries/users.js';
import {
  capturingLogger,
  createTestApp,
  engine,
  openTestDb,
  T0,
  TEST_SECRETS,
  testConfig,
  type TestApp,
} from '../helpers/app.js';
import { seedUser } from '../helpers/seed.js';

const BUCKETS = [
  {
    hour_start: '2026-10-30T10:00:00Z',
    source: 'codex',
    model: 'gpt-5',
    input_tokens: 1_000_000,
    total_tokens: 1_000_000,
  },
  {
    hour_start: '2026-10-30T23:30:00Z',
    source: 'claude',
    model: 'claude-opus-4-1',
    input_tokens: 10_000,
    output_tokens: 2_000,
    total_tokens: 12_000,
  },
  {
    hour_start: '2026-10-31T00:00:00Z',
    source: 'gemini',
    model: 'gemini-2.5-pro',
    input_tokens: 300,
    output_tokens: 3,
    total_tokens: 303,
  },
];

const readAll = async (app: TestApp['app'], token: string) =>
  Promise.all(
    [
      '/functions/svc-usage-summary?from=2026-10-29&to=2026-11-01&tz=Asia/Tokyo',
      '/functions/svc-usage-daily?from=2026-10-29&to=2026-11-01&tz=America/New_York',
      '/functions/svc-usage-model-breakdown?from=2026-10-29&to=2026-11-01',
      '/functions/svc-usage-heatmap?weeks=2&to=2026-11-01',
    ].map(async (url) => (await app.inject({ method: 'GET', url, headers: bearer(token) })).json()),
  );

describe(`upgrade across migration 0004 (${engine})`, () => {
  it('keeps the usage stored before it and prices it on the first start', async () => {
    // The reference: a fresh install given the same uploads.
    const fresh = await createTestApp();
    const freshUser = await signUp(fresh, 'fresh@example.com');
    expect((await ingest(fresh, (await issueDevice(fresh, freshUser)).token, BUCKETS)).statusCode).toBe(200);
    const expected = await readAll(fresh.app, freshUser.accessToken);
    await fresh.close();

    // A database at migration 0003 with the same usage, written the way ingest wrote it then.
    const { db, drop } = await openTestDb();
    await migrateUpTo(db, '2026_11_22_0003_sharing_leaderboard_admin');
    const now = Date.UTC(2026, 10, 1, 12);
    const userId = '00000000-0000-4000-8000-000000000001';
    await seedUser(db, userId, now, { email: 'old@example.com' });
    for (const b of BUCKETS) {
      const input = BigInt(b.input_tokens);
      const output = BigInt(b.output_tokens ?? 0);
      const billable = b.source === 'gemini' ? BigInt(b.total_tokens) : input + output;
      // The 0003 schema has no cost column: insert into the rollup only; its triggers kept the rest.
      await db.kysely
        .insertInto('usage_rollup')
        .values({
          user_id: userId,
          hour_start: Date.parse(b.hour_start),
          source: b.source,
          model: b.model,
          input,
          cached_input: 0n,
          output,
          reasoning: 0n,
          total: BigInt(b.total_tokens),
          billable,
        })
        .execute();
    }
    expect(
      Number(
        (
          await db.kysely
            .selectFrom('usage_daily')
            .select((eb) => eb.fn.countAll<bigint>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(3);

    // First start on the new code: migration 0004, then repricing of the stored rows.
    const logs: string[] = [];
    const clock = new ManualClock(T0);
    const upgraded = await createApp({ config: testConfig(), db, clock, logger: capturingLogger(logs) });
    try {
      expect(logs.join('')).toMatch(/repriced stored daily costs \(3 rows read, 3 changed/);
      // A live session for the old user, so its access token is honoured.
      await insertRefreshToken(db.kysely, {
        token_hash: 'upgrade-test',
        user_id: userId,
        session_id: 'upgrade-test',
        created_at: clock.now(),
        expires_at: clock.now() + 3_600_000,
      });
      const { token } = await new JwtService(TEST_SECRETS.JWT_SECRET, 3600).sign(
        { sub: userId, email: 'old@example.com', sessionId: 'upgrade-test' },
        clock.now(),
      );
      expect(await readAll(upgraded.app, token)).toEqual(expected);
    } finally {
      await upgraded.close();
      await drop();
    }
  });
});
