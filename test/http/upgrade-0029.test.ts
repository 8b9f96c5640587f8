/**
 * Upgrading a database made before migration 0029 (both engines): the team-side read model is
 * filled from the stored `usage_rollup` and `usage_daily` rows of each team's members (a user in
 * two teams in both, a user in none in neither), the daily rows' costs and the 4-hour spans too
 * (migration 0030); the ingest writers then add a member's changes to their teams' rows, and the
 * rows stay the sums over the members.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { DAY_MS, HALF_HOUR_MS } from '../../src/domain/calendar.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import { createPriceService } from '../../src/pricing/price-service.js';
import { engine, openTestDb } from '../helpers/app.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';
import { expectTeamModelInStep } from '../helpers/team-usage-model.js';

const USERS = [
  '00000000-0000-4000-8000-000000000291',
  '00000000-0000-4000-8000-000000000292',
  '00000000-0000-4000-8000-000000000293',
];
const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = Math.floor(NOW / DAY_MS) - 2;
const BEFORE = '2026_11_29_0028_leaderboard_costs';

describe(`upgrade across migrations 0029 and 0030 (${engine})`, () => {
  it('fills the team rows from the members’ stored rows, and the writers keep them in step', async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateUpTo(db, BEFORE);
      for (const user of USERS) await seedUser(db, user, NOW);
      await seedDevice(db, 'laptop', USERS[0] as string, NOW);
      for (const [id, members] of [
        ['team-a', [USERS[0], USERS[1]]],
        ['team-b', [USERS[0]]],
      ] as const) {
        await db.kysely
          .insertInto('teams')
          .values({ id, name: id, slug: id, created_at: NOW, updated_at: NOW })
          .execute();
        for (const user of members)
          await db.kysely
            .insertInto('team_members')
            .values({ team_id: id, user_id: user as string, role: 'member', joined_at: NOW })
            .execute();
      }
      const counts = (n: bigint) => ({
        input: n,
        cached_input: 0n,
        output: n * 2n,
        reasoning: 0n,
        total: n * 3n,
        billable: n * 3n,
      });
      for (const [i, user] of USERS.entries()) {
        const n = BigInt(i + 1) * 10n;
        const rollup = (slot: number, model: string) => ({
          user_id: user,
          hour_start: DAY * DAY_MS + slot * HALF_HOUR_MS,
          source: 'codex',
          model,
          ...counts(n),
        });
        await db.kysely
          .insertInto('usage_rollup')
          .values([rollup(3, 'gpt-5'), rollup(4, 'gpt-5'), rollup(3, 'o3')])
          .execute();
        await db.kysely
          .insertInto('usage_daily')
          .values([
            { user_id: user, day: DAY, source: 'codex', model: 'gpt-5', ...counts(2n * n), cost_micros: n },
            { user_id: user, day: DAY, source: 'codex', model: 'o3', ...counts(n), cost_micros: n },
          ])
          .execute();
      }

      await migrateToLatest(db);
      const filled = await db.kysely
        .selectFrom('team_usage_daily')
        .select(['team_id', 'model', 'total', 'cost_micros'])
        .orderBy('team_id')
        .orderBy('model')
        .execute();
      expect(filled.map((r) => [r.team_id, r.model, BigInt(r.total), BigInt(r.cost_micros)])).toEqual([
        ['team-a', 'gpt-5', 180n, 30n],
        ['team-a', 'o3', 90n, 30n],
        ['team-b', 'gpt-5', 60n, 10n],
        ['team-b', 'o3', 30n, 10n],
      ]);
      await expectTeamModelInStep(db.kysely, 'after the upgrade');

      // An upload of a member of both teams, into a stored half-hour and a new one, moves both teams' rows.
      const prices = createPriceService();
      const writer = createIngestWriter(db, (model, day) => prices.priceOn(model, day).rates);
      const upload = (tokens: bigint, slot: number) =>
        writer.apply({
          userId: USERS[0] as string,
          deviceId: 'laptop',
          now: NOW,
          buckets: [
            seedBucket(tokens, { hourStart: DAY * DAY_MS + slot * HALF_HOUR_MS, source: 'codex', model: 'gpt-5' }),
          ],
          subscriptions: undefined,
        });
      try {
        await upload(1_000n, 3);
        await upload(5_000n, 9);
      } finally {
        await writer.close();
      }
      await expectTeamModelInStep(db.kysely, 'after the uploads');
      expect((await db.kysely.selectFrom('team_usage_rollup').select('team_id').execute()).length).toBe(8);

      await migrateUpTo(db, '2026_11_29_0029_team_usage');
      await expect(sql`select cost_micros from team_usage_daily`.execute(db.kysely)).rejects.toThrow();
      await expect(sql`select 1 from team_usage_spans`.execute(db.kysely)).rejects.toThrow();
      await migrateUpTo(db, BEFORE);
      await expect(sql`select 1 from team_usage_rollup`.execute(db.kysely)).rejects.toThrow();
    } finally {
      await db.close();
      await drop();
    }
  });
});
