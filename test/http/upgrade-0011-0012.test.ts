/**
 * Upgrading a database made before migrations 0011 and 0012 (both engines):
 * - 0011: each device's `last_upload_at` is filled from its upload records still kept, the
 *   `(device_id, created_at)` index on `ingest_events` is dropped; down brings the index back and
 *   takes the column away;
 * - 0012: `usage_buckets` loses `user_id`, every row stays, and the user's raw sums are read
 *   through the devices; down fills the column again from the devices.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connect.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { sumUserBuckets } from '../helpers/stored-usage.js';
import { engine, openTestDb } from '../helpers/app.js';
import { seedDevice, seedUser } from '../helpers/seed.js';

const USER = '00000000-0000-4000-8000-000000000011';
const NOW = Date.UTC(2026, 10, 20, 12);

const hasEventsIndex = async (db: Db): Promise<boolean> => {
  const rows =
    db.dialect === 'sqlite'
      ? await sql`select name from sqlite_master where type = 'index' and name = 'ingest_events_device'`.execute(
          db.kysely,
        )
      : await sql`select indexname from pg_indexes where schemaname = current_schema() and indexname = 'ingest_events_device'`.execute(
          db.kysely,
        );
  return rows.rows.length === 1;
};

describe(`upgrade across migrations 0011 and 0012 (${engine})`, () => {
  it("fills each device's last upload from its kept records and drops the per-device events index", async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateUpTo(db, '2026_11_24_0010_repricing_in_background');
      expect(await hasEventsIndex(db)).toBe(true);
      await seedUser(db, USER, NOW);
      for (const id of ['uploaded', 'silent']) await seedDevice(db, id, USER, NOW);
      // Inserted out of order: the newest record wins, not the last inserted.
      for (const at of [NOW + 5_000, NOW + 90_000, NOW + 60_000]) {
        await db.kysely
          .insertInto('ingest_events')
          .values({ device_id: 'uploaded', user_id: USER, bucket_count: 1, inserted: 1, skipped: 0, created_at: at })
          .execute();
      }

      await migrateToLatest(db);
      const devices = await db.kysely.selectFrom('devices').select(['id', 'last_upload_at']).orderBy('id').execute();
      expect(devices.map((d) => [d.id, d.last_upload_at === null ? null : Number(d.last_upload_at)])).toEqual([
        ['silent', null],
        ['uploaded', NOW + 90_000],
      ]);
      expect(await hasEventsIndex(db)).toBe(false);

      await migrateUpTo(db, '2026_11_24_0010_repricing_in_background');
      expect(await hasEventsIndex(db)).toBe(true);
      await expect(sql`select last_upload_at from devices`.execute(db.kysely)).rejects.toThrow();
    } finally {
      await db.close();
      await drop();
    }
  });

  it('drops the user from the raw buckets, keeping every row and sum, and fills it again going down', async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateUpTo(db, '2026_11_25_0011_device_last_upload');
      const OTHER = '00000000-0000-4000-8000-000000000012';
      for (const user of [USER, OTHER]) await seedUser(db, user, NOW);
      await seedDevice(db, 'mine', USER, NOW);
      await seedDevice(db, 'theirs', OTHER, NOW);
      const big = 2n ** 62n; // past 2^53: sums stay exact
      for (const [device, user, hour, total] of [
        ['mine', USER, NOW, big],
        ['mine', USER, NOW + 1_800_000, 7n],
        ['theirs', OTHER, NOW, 5n],
      ] as const) {
        await sql`insert into usage_buckets (device_id, user_id, hour_start, source, model, project_key, project_ref,
                                             input, cached_input, output, reasoning, total, billable, updated_at)
                  values (${device}, ${user}, ${hour}, 'codex', 'gpt-5', '', null, ${total}, 0, 0, 0, ${total}, ${total}, ${NOW})`.execute(
          db.kysely,
        );
      }

      await migrateToLatest(db);
      await expect(sql`select user_id from usage_device_days`.execute(db.kysely)).rejects.toThrow();
      expect((await sumUserBuckets(db.kysely, USER)).total).toBe(big + 7n);
      expect((await sumUserBuckets(db.kysely, OTHER)).billable).toBe(5n);

      await migrateUpTo(db, '2026_11_25_0011_device_last_upload');
      const rows = await sql<{ device_id: string; user_id: string }>`select device_id, user_id from usage_buckets
                                                                      order by device_id, hour_start`.execute(
        db.kysely,
      );
      expect(rows.rows).toEqual([
        { device_id: 'mine', user_id: USER },
        { device_id: 'mine', user_id: USER },
        { device_id: 'theirs', user_id: OTHER },
      ]);
    } finally {
      await db.close();
      await drop();
    }
  });
});
