/**
 * Upgrading a database made before migration 0011 (both engines): each device's `last_upload_at`
 * is filled from its upload records still kept, the `(device_id, created_at)` index on
 * `ingest_events` is dropped, and going down brings the index back and the column away.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connect.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
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

describe(`upgrade across migration 0011 (${engine})`, () => {
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
});
