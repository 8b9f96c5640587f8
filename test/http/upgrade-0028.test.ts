/**
 * Upgrading a database made before migration 0028 (both engines): the leaderboard's per-period
 * family costs are filled from the stored costs of `usage_daily` (a user whose usage has a cost but
 * no billable tokens gets rows with zero tokens), the snapshots made without costs are let go, and
 * the ingest writers go on from the filled costs: every week, month and all-time row's costs stay
 * the sums of the stored costs.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connect.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { DAY_MS, monthIndexOfEpochDay } from '../../src/domain/calendar.js';
import { isoWeekOf } from '../../src/domain/leaderboard-periods.js';
import { modelFamily } from '../../src/domain/model-family.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { engine, openTestDb } from '../helpers/app.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';

const ADA = '00000000-0000-4000-8000-000000000261';
const BOB = '00000000-0000-4000-8000-000000000262';
const NOW = Date.UTC(2026, 10, 20, 12);
const BEFORE = '2026_11_29_0027_usage_blocks';
const DAY = Date.UTC(2026, 10, 29) / DAY_MS; // a Sunday: the day after is another week and another month
const RATES: TokenRates = { input: 3_000_000_000n, cached: 300_000_000n, output: 15_000_000_000n, reasoning: 0n };

/** Stored daily rows as an older server left them: (user, day, source, model, billable, cost). */
const DAILY: [string, number, string, string, bigint, bigint][] = [
  [ADA, DAY - 8, 'codex', 'gpt-5', 1_000n, 1_250n],
  [ADA, DAY, 'codex', 'gpt-5', 2_000n, 2_500n],
  [ADA, DAY, 'codex', 'o3-mini', 500n, 77n],
  [ADA, DAY, 'claude', 'claude-opus-4-1', 300n, 9_000n],
  [ADA, DAY + 1, 'claude', 'anthropic/claude-sonnet-4-5', 100n, 450n],
  [ADA, DAY + 1, 'gemini', 'gemini-2.5-pro', 40n, 33n],
  // Cost without billable tokens (a source trusted for its total, which said 0): no token rows before.
  [BOB, DAY, 'other-tool', 'mystery-model', 0n, 5n],
];

type Table = 'leaderboard_user_weeks' | 'leaderboard_user_months' | 'leaderboard_user_totals';

/** Every family row's costs, and what the stored costs of `usage_daily` sum to, per (table, user, key). */
async function costsAndSums(db: Db): Promise<{ stored: Map<string, bigint[]>; summed: Map<string, bigint[]> }> {
  const stored = new Map<string, bigint[]>();
  for (const [table, key] of [
    ['leaderboard_user_weeks', 'week'],
    ['leaderboard_user_months', 'month'],
    ['leaderboard_user_totals', null],
  ] as [Table, string | null][]) {
    const rows = await sql<{
      user_id: string;
      k: bigint | null;
      gpt_cost: bigint;
      claude_cost: bigint;
      other_cost: bigint;
    }>`select user_id, ${sql.raw(key ?? 'null')} as k, gpt_cost, claude_cost, other_cost from ${sql.table(table)}`.execute(
      db.kysely,
    );
    for (const r of rows.rows)
      stored.set(`${table}|${r.user_id}|${r.k === null ? '' : Number(r.k)}`, [
        BigInt(r.gpt_cost),
        BigInt(r.claude_cost),
        BigInt(r.other_cost),
      ]);
  }
  const summed = new Map<string, bigint[]>();
  const daily = await db.kysely.selectFrom('usage_daily').select(['user_id', 'day', 'model', 'cost_micros']).execute();
  for (const r of daily) {
    const day = Number(r.day);
    const f = ['gpt', 'claude', 'other'].indexOf(modelFamily(r.model));
    for (const key of [
      `leaderboard_user_weeks|${r.user_id}|${isoWeekOf(day)}`,
      `leaderboard_user_months|${r.user_id}|${monthIndexOfEpochDay(day)}`,
      `leaderboard_user_totals|${r.user_id}|`,
    ]) {
      const sums = summed.get(key) ?? [0n, 0n, 0n];
      sums[f] = (sums[f] as bigint) + BigInt(r.cost_micros);
      summed.set(key, sums);
    }
  }
  return { stored, summed };
}

describe(`upgrade across migration 0028 (${engine})`, () => {
  it('fills the per-period family costs from the stored costs, and the writers go on from them', async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateUpTo(db, BEFORE);
      for (const user of [ADA, BOB]) await seedUser(db, user, NOW);
      await seedDevice(db, 'laptop', ADA, NOW);
      for (const [user, day, source, model, billable, cost] of DAILY) {
        await db.kysely
          .insertInto('usage_daily')
          .values({
            user_id: user,
            day,
            source,
            model,
            input: billable,
            cached_input: 0n,
            output: 0n,
            reasoning: 0n,
            total: billable,
            billable,
            cost_micros: cost,
          })
          .execute();
      }
      // Ada's token rows as the writers kept them (tokens only, before 0028).
      const tokenRows = new Map<string, { table: Table; key: number | null; f: bigint[] }>();
      for (const [user, day, , model, billable] of DAILY) {
        if (user !== ADA) continue;
        const f = ['gpt', 'claude', 'other'].indexOf(modelFamily(model));
        for (const [table, key] of [
          ['leaderboard_user_weeks', isoWeekOf(day)],
          ['leaderboard_user_months', monthIndexOfEpochDay(day)],
          ['leaderboard_user_totals', null],
        ] as [Table, number | null][]) {
          const k = `${table}|${key}`;
          const row = tokenRows.get(k) ?? { table, key, f: [0n, 0n, 0n] };
          row.f[f] = (row.f[f] as bigint) + billable;
          tokenRows.set(k, row);
        }
      }
      for (const { table, key, f } of tokenRows.values()) {
        const [gpt, claude, other] = f as [bigint, bigint, bigint];
        const keyColumn =
          table === 'leaderboard_user_weeks' ? 'week' : table === 'leaderboard_user_months' ? 'month' : null;
        await sql`insert into ${sql.table(table)} (user_id, ${sql.raw(keyColumn ? `${keyColumn}, ` : '')}gpt, claude, other)
                  values (${ADA}, ${sql.raw(key === null ? '' : `${key}, `)}${gpt}, ${claude}, ${other})`.execute(
          db.kysely,
        );
      }
      await db.kysely.insertInto('leaderboard_current').values({ period: 'week', generation: 1 }).execute();

      await migrateToLatest(db);
      const filled = await costsAndSums(db);
      expect(filled.stored).toEqual(filled.summed);
      expect(filled.stored.get(`leaderboard_user_totals|${ADA}|`)).toEqual([1_250n + 2_500n + 77n, 9_450n, 33n]);
      expect(filled.stored.get(`leaderboard_user_totals|${BOB}|`)).toEqual([0n, 0n, 5n]);
      // Ada's tokens are as they were; Bob's new rows have none.
      const totals = await db.kysely.selectFrom('leaderboard_user_totals').selectAll().orderBy('user_id').execute();
      expect(totals.map((r) => [r.user_id, BigInt(r.gpt), BigInt(r.claude), BigInt(r.other)])).toEqual([
        [ADA, 3_500n, 400n, 40n],
        [BOB, 0n, 0n, 0n],
      ]);
      expect(await db.kysely.selectFrom('leaderboard_current').selectAll().execute()).toEqual([]);

      // The writers go on from the filled costs: a row repriced whole, a new row, another family.
      const writer = createIngestWriter(db, () => RATES);
      try {
        await writer.apply({
          userId: ADA,
          deviceId: 'laptop',
          now: NOW,
          buckets: [
            seedBucket(5_000n, { hourStart: DAY * DAY_MS + 3_600_000, source: 'codex', model: 'gpt-5' }),
            seedBucket(7_000n, { hourStart: (DAY + 1) * DAY_MS, source: 'codex', model: 'gpt-5' }),
            seedBucket(9_000n, { hourStart: (DAY - 8) * DAY_MS, source: 'claude', model: 'claude-opus-4-1' }),
          ],
          subscriptions: undefined,
        });
      } finally {
        await writer.close();
      }
      const after = await costsAndSums(db);
      expect(after.stored).toEqual(after.summed);
      expect(after.stored.get(`leaderboard_user_totals|${ADA}|`)).not.toEqual(
        filled.stored.get(`leaderboard_user_totals|${ADA}|`),
      );

      await migrateUpTo(db, BEFORE);
      await expect(sql`select gpt_cost from leaderboard_user_totals`.execute(db.kysely)).rejects.toThrow();
      await expect(sql`select total_cost from leaderboard_members`.execute(db.kysely)).rejects.toThrow();
    } finally {
      await db.close();
      await drop();
    }
  });
});
