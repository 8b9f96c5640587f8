/**
 * Upgrading a database made before migration 0017 (both engines): each account's count of stored
 * raw buckets (`user_storage`) is filled from its devices' packed days, revoked devices' too; an
 * account without buckets has no row (none stored). The ingest writers then go on from that count:
 * the stored-bucket bound holds at once for data stored before it existed.
 */
import type { Bucket } from '../../src/domain/bucket.js';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { DAY_MS, HALF_HOUR_MS } from '../../src/domain/calendar.js';
import { Conflict } from '../../src/domain/errors.js';
import { packDayBuckets } from '../../src/domain/device-day-buckets.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { engine, openTestDb } from '../helpers/app.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';

const USER = '00000000-0000-4000-8000-000000000051';
const OTHER = '00000000-0000-4000-8000-000000000052';
const EMPTY = '00000000-0000-4000-8000-000000000053';
const NOW = Date.UTC(2026, 10, 20, 12);
const BEFORE = '2026_11_28_0016_api_tokens';
const DAY = Date.UTC(2026, 10, 20) / DAY_MS;
const RATES: TokenRates = { input: 0n, cached: 0n, output: 0n, reasoning: 0n };

/** `n` buckets of one UTC day, each of its own (half-hour, model); with a project from the fourth on. */
const dayOf = (day: number, n: number): Bucket[] =>
  Array.from({ length: n }, (_, i) =>
    seedBucket(BigInt(i + 1), {
      hourStart: day * DAY_MS + (i % 48) * HALF_HOUR_MS,
      model: `m${i}`,
      ...(i >= 3 ? { projectKey: `p${i}`, projectRef: null } : {}),
    }),
  );

describe(`upgrade across migration 0017 (${engine})`, () => {
  it("fills each account's stored bucket count from its devices' packed days, revoked ones too", async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateUpTo(db, BEFORE);
      for (const user of [USER, OTHER, EMPTY]) await seedUser(db, user, NOW);
      for (const [device, user] of [
        ['laptop', USER],
        ['old', USER],
        ['theirs', OTHER],
        ['idle', EMPTY],
      ] as const)
        await seedDevice(db, device, user, NOW);
      await db.kysely.updateTable('devices').set({ revoked_at: NOW }).where('id', '=', 'old').execute();
      const put = async (device: string, day: number, n: number) => {
        const { num } = await db.kysely
          .selectFrom('devices')
          .select('num')
          .where('id', '=', device)
          .executeTakeFirstOrThrow();
        await db.kysely
          .insertInto('usage_device_days')
          .values({ device_num: num, day, buckets: packDayBuckets(day, dayOf(day, n)), updated_at: NOW })
          .execute();
      };
      await put('laptop', DAY, 7);
      await put('laptop', DAY + 1, 60);
      await put('old', DAY - 3, 5);
      await put('theirs', DAY, 1);

      await migrateToLatest(db);
      const rows = await db.kysely.selectFrom('user_storage').selectAll().orderBy('user_id').execute();
      expect(rows.map((r) => [r.user_id, BigInt(r.stored_buckets)])).toEqual([
        [USER, 72n],
        [OTHER, 1n],
      ]);

      // The writers go on from there: with a bound of 73, one new bucket fits, the next does not.
      const writer = createIngestWriter(db, () => RATES, {
        maxTokensPerUserDay: 2n ** 62n,
        maxBucketsPerHalfHour: 200,
        maxStoredBuckets: 73,
      });
      const upload = (model: string) =>
        writer.apply({
          userId: USER,
          deviceId: 'laptop',
          now: NOW,
          buckets: [seedBucket(1n, { hourStart: NOW, model })],
          subscriptions: undefined,
        });
      try {
        expect(await upload('new-1')).toMatchObject({ inserted: 1 });
        await expect(upload('new-2')).rejects.toBeInstanceOf(Conflict);
      } finally {
        await writer.close();
      }
      const after = await db.kysely
        .selectFrom('user_storage')
        .select('stored_buckets')
        .where('user_id', '=', USER)
        .executeTakeFirstOrThrow();
      expect(BigInt(after.stored_buckets)).toBe(73n);

      await migrateUpTo(db, BEFORE);
      await expect(sql`select 1 from user_storage`.execute(db.kysely)).rejects.toThrow();
    } finally {
      await db.close();
      await drop();
    }
  });
});
