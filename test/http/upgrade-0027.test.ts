/**
 * Upgrading a database made before migration 0027 (both engines): `usage_blocks` is filled from the
 * stored `usage_daily` rows, counts and stored costs summed per (user, 16 UTC days, source, model),
 * days on either side of a block's edge in their own blocks; the ingest writers then add their
 * changes to it (a re-upload's cost too), and the sums stay those of the days.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { BLOCK_DAYS, DAY_MS, HALF_HOUR_MS } from '../../src/domain/calendar.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import { createPriceService } from '../../src/pricing/price-service.js';
import { engine, openTestDb } from '../helpers/app.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';
import { blocksAndTheirDays } from '../helpers/stored-usage.js';

const USER = '00000000-0000-4000-8000-000000000261';
const OTHER = '00000000-0000-4000-8000-000000000262';
const NOW = Date.UTC(2026, 10, 20, 12);
const BEFORE = '2026_11_29_0026_otlp_versions';
/** The first day of a block, and the day before it (the last of the previous block). */
const EDGE = Math.floor(Date.UTC(2026, 10, 20) / DAY_MS / BLOCK_DAYS) * BLOCK_DAYS;

describe(`upgrade across migration 0027 (${engine})`, () => {
  it('fills the 16-day sums from the stored days, and the writers keep them in step', async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateUpTo(db, BEFORE);
      for (const user of [USER, OTHER]) await seedUser(db, user, NOW);
      await seedDevice(db, 'laptop', USER, NOW);
      const row = (user: string, day: number, model: string, n: bigint) => ({
        user_id: user,
        day,
        source: 'codex',
        model,
        input: n,
        cached_input: 0n,
        output: n * 2n,
        reasoning: 0n,
        total: n * 3n,
        billable: n * 3n,
        cost_micros: n * 7n,
      });
      await db.kysely
        .insertInto('usage_daily')
        .values([
          row(USER, EDGE - 1, 'gpt-5', 10n),
          row(USER, EDGE, 'gpt-5', 20n),
          row(USER, EDGE + 1, 'gpt-5', 30n),
          row(USER, EDGE + 1, 'o3', 40n),
          row(USER, EDGE + BLOCK_DAYS, 'gpt-5', 50n),
          row(OTHER, EDGE, 'gpt-5', 60n),
        ])
        .execute();

      await migrateToLatest(db);
      const filled = await db.kysely
        .selectFrom('usage_blocks')
        .select(['user_id', 'block', 'model', 'total', 'cost_micros'])
        .orderBy('user_id')
        .orderBy('block')
        .orderBy('model')
        .execute();
      const block = EDGE / BLOCK_DAYS;
      expect(filled.map((r) => [r.user_id, Number(r.block), r.model, BigInt(r.total), BigInt(r.cost_micros)])).toEqual([
        [USER, block - 1, 'gpt-5', 30n, 70n],
        [USER, block, 'gpt-5', 150n, 350n],
        [USER, block, 'o3', 120n, 280n],
        [USER, block + 1, 'gpt-5', 150n, 350n],
        [OTHER, block, 'gpt-5', 180n, 420n],
      ]);

      // An upload into a stored day reprices that day as a whole; its block takes the change.
      const prices = createPriceService();
      const writer = createIngestWriter(db, (model, day) => prices.priceOn(model, day).rates);
      const upload = (tokens: bigint, model: string, day: number) =>
        writer.apply({
          userId: USER,
          deviceId: 'laptop',
          now: NOW,
          buckets: [seedBucket(tokens, { hourStart: day * DAY_MS + 5 * HALF_HOUR_MS, source: 'codex', model })],
          subscriptions: undefined,
        });
      try {
        await upload(1_000_000n, 'gpt-5', EDGE + 1);
        await upload(3_000_000n, 'gpt-5', EDGE + 1); // the same bucket again, counts changed
        await upload(2_000_000n, 'claude-sonnet-4-5', EDGE - 1);
      } finally {
        await writer.close();
      }
      const kept = await blocksAndTheirDays(db.kysely);
      expect(kept.stored.size).toBe(6);
      expect(kept.stored).toEqual(kept.fromDays);

      await migrateUpTo(db, BEFORE);
      await expect(sql`select 1 from usage_blocks`.execute(db.kysely)).rejects.toThrow();
    } finally {
      await db.close();
      await drop();
    }
  });
});
