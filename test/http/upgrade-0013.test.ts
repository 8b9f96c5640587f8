/**
 * Upgrading a database made before migration 0013 (both engines): every device is numbered by age,
 * the raw buckets move from the device's id to its number with every row and sum kept, a device
 * made afterwards is given the next number by the database itself, the writer stores and reads by
 * number, and down puts the ids back.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { listDeviceBuckets, sumUserBuckets } from '../helpers/stored-usage.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { engine, openTestDb } from '../helpers/app.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';

const USER = '00000000-0000-4000-8000-000000000021';
const OTHER = '00000000-0000-4000-8000-000000000022';
const NOW = Date.UTC(2026, 10, 20, 12);
const BEFORE = '2026_11_25_0012_buckets_without_user';
const RATES: TokenRates = { input: 0n, cached: 0n, output: 0n, reasoning: 0n };

describe(`upgrade across migration 0013 (${engine})`, () => {
  it('numbers the devices by age, keys the raw buckets by number, and goes back down', async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateUpTo(db, BEFORE);
      for (const user of [USER, OTHER]) await seedUser(db, user, NOW);
      // Made in this order, inserted in another: the numbers follow the age.
      await seedDevice(db, 'laptop', USER, NOW + 2);
      await seedDevice(db, 'desktop', USER, NOW);
      await seedDevice(db, 'theirs', OTHER, NOW + 1);
      const big = 2n ** 62n; // past 2^53: sums stay exact
      for (const [device, hour, total] of [
        ['laptop', NOW, big],
        ['laptop', NOW + 1_800_000, 7n],
        ['desktop', NOW, 3n],
        ['theirs', NOW, 5n],
      ] as const) {
        await sql`insert into usage_buckets (device_id, hour_start, source, model, project_key, project_ref,
                                             input, cached_input, output, reasoning, total, billable, updated_at)
                  values (${device}, ${hour}, 'codex', 'gpt-5', '', null, ${total}, 0, 0, 0, ${total}, ${total}, ${NOW})`.execute(
          db.kysely,
        );
      }

      await migrateToLatest(db);
      const numbered = await db.kysely.selectFrom('devices').select(['id', 'num']).orderBy('num').execute();
      expect(numbered).toEqual([
        { id: 'desktop', num: 1n },
        { id: 'theirs', num: 2n },
        { id: 'laptop', num: 3n },
      ]);
      await expect(sql`select device_id from usage_device_days`.execute(db.kysely)).rejects.toThrow();
      expect((await sumUserBuckets(db.kysely, USER)).total).toBe(big + 10n);
      expect((await sumUserBuckets(db.kysely, OTHER)).billable).toBe(5n);
      expect((await listDeviceBuckets(db.kysely, 'laptop')).map((b) => b.total)).toEqual([big, 7n]);

      // A device made now is numbered by the database, past the others, however it is inserted.
      await seedDevice(db, 'phone', USER, NOW + 3);
      const phone = await db.kysely.selectFrom('devices').select('num').where('id', '=', 'phone').executeTakeFirst();
      expect(phone?.num).toBe(4n);
      const writer = createIngestWriter(db, () => RATES, {
        maxTokensPerUserDay: 2n ** 62n,
        maxBucketsPerHalfHour: 200,
        maxStoredBuckets: 5_000_000,
      });
      try {
        const answer = await writer.apply({
          userId: USER,
          deviceId: 'phone',
          now: NOW,
          buckets: [seedBucket(11n, { hourStart: NOW })],
          subscriptions: undefined,
        });
        expect(answer.inserted).toBe(1);
        // The same half-hour again, twice: read back by number, so the row is replaced, then found unchanged.
        const upload = (tokens: bigint) =>
          writer.apply({
            userId: USER,
            deviceId: 'phone',
            now: NOW,
            buckets: [seedBucket(tokens, { hourStart: NOW })],
            subscriptions: undefined,
          });
        expect(await upload(13n)).toMatchObject({ inserted: 1, skipped: 0 });
        expect(await upload(13n)).toMatchObject({ inserted: 0, skipped: 1 });
      } finally {
        await writer.close();
      }
      expect((await listDeviceBuckets(db.kysely, 'phone')).map((b) => b.total)).toEqual([13n]);
      expect((await sumUserBuckets(db.kysely, USER)).total).toBe(big + 23n);

      await migrateUpTo(db, BEFORE);
      const rows = await sql<{ device_id: string; total: bigint | string }>`select device_id, total from usage_buckets
                                                                             order by device_id, hour_start`.execute(
        db.kysely,
      );
      expect(rows.rows.map((r) => [r.device_id, BigInt(r.total)])).toEqual([
        ['desktop', 3n],
        ['laptop', big],
        ['laptop', 7n],
        ['phone', 13n],
        ['theirs', 5n],
      ]);
      await expect(sql`select num from devices`.execute(db.kysely)).rejects.toThrow();
      // Without the trigger, a device inserted at this schema is stored as before.
      await seedDevice(db, 'tablet', USER, NOW + 4);
    } finally {
      await db.close();
      await drop();
    }
  });
});
