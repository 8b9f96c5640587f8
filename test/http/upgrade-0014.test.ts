/**
 * Upgrading a database made before migration 0014 (both engines): the raw buckets move from one
 * `usage_buckets` row each to one `usage_device_days` row per (device, UTC day), packed in exactly
 * the text the writers pack (domain/device-day-buckets.ts), every count exact past 2^53 and every
 * string exact whatever its characters; down unpacks them into the same rows again.
 */
import type { Bucket } from '../../src/domain/bucket.js';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connect.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { DAY_MS, HALF_HOUR_MS } from '../../src/domain/calendar.js';
import {
  compareBucketKeys,
  dayOfHalfHour,
  packDayBuckets,
  parseDay,
  unpackDayBuckets,
} from '../../src/domain/device-day-buckets.js';
import { engine, openTestDb } from '../helpers/app.js';
import { seedDevice, seedUser } from '../helpers/seed.js';

const USER = '00000000-0000-4000-8000-000000000031';
const OTHER = '00000000-0000-4000-8000-000000000032';
const NOW = Date.UTC(2026, 10, 20, 12);
const BEFORE = '2026_11_27_0013_buckets_by_device_number';
const DAY = Date.UTC(2026, 10, 20) / DAY_MS;
const at = (day: number, slot: number) => day * DAY_MS + slot * HALF_HOUR_MS;

/** A raw bucket of a device as stored before 0014, with its own `updated_at`. */
interface Raw {
  device: string;
  bucket: Bucket;
  updatedAt: number;
}

const raw = (
  device: string,
  hourStart: number,
  key: [source: string, model: string, projectKey: string, projectRef: string | null],
  total: bigint,
  updatedAt: number,
): Raw => ({
  device,
  bucket: {
    hourStart,
    source: key[0],
    model: key[1],
    projectKey: key[2],
    projectRef: key[3],
    input: total - 3n,
    cached: 1n,
    output: 2n,
    reasoning: 0n,
    total,
    billable: total / 2n,
  },
  updatedAt,
});

const BIG = 9_007_199_254_740_993n; // 2^53 + 1: not a double
const ROWS: Raw[] = [
  // Several buckets of one half-hour (slot 0 of the day), apart by source, model and project key.
  raw('laptop', at(DAY, 0), ['codex', 'gpt-5', '', null], 10n, NOW),
  raw('laptop', at(DAY, 0), ['claude', 'claude-sonnet-4-5', '', null], 20n, NOW + 5),
  raw('laptop', at(DAY, 0), ['claude', 'claude-sonnet-4-5', 'proj-a', 'git@github.com:a/b.git'], 30n, NOW + 1),
  raw('laptop', at(DAY, 0), ['claude', 'claude-opus-4-1', 'proj-a', 'git@github.com:a/b.git'], 40n, NOW),
  // Characters JSON escapes or that are not ASCII, in every string.
  raw('laptop', at(DAY, 13), ['co"dex', 'gpt\\5 "mini"', 'C:\\src\\é', 'ref "\\" é 模型'], 50n, NOW),
  raw('laptop', at(DAY, 13), ['codex', '模型', 'tab\there\nline\u0001', null], BIG, NOW + 9),
  raw('laptop', at(DAY, 47), ['codex', 'gpt-5', '', null], 2n ** 63n - 1n, NOW + 2),
  // The next UTC day, and its first half-hour.
  raw('laptop', at(DAY + 1, 0), ['codex', 'gpt-5', '', null], 7n, NOW + 100),
  raw('laptop', at(DAY + 1, 30), ['gemini', 'gemini-2.5-pro', 'é', 'é'], 8n, NOW + 50),
  raw('desktop', at(DAY, 47), ['codex', 'gpt-5', '', null], BIG + 1n, NOW + 3),
  raw('desktop', at(DAY + 1, 47), ['codex', 'gpt-5', '', null], 3n, NOW + 4),
  raw('theirs', at(DAY + 1, 20), ['claude', 'claude-sonnet-4-5', '', null], 5n, NOW + 6),
];

/**
 * A day whose keys differ by a character past U+FFFF and one in U+E000..U+FFFF: the engines order
 * strings by code point (UTF-8 bytes), compareBucketKeys by UTF-16 code unit, and the two orders
 * disagree there. The writers read a day into a map and pack it sorted again, so the stored order
 * does not matter to them; this day is checked by value, its order pinned as the engines give it.
 */
const ASTRAL = [
  raw('theirs', at(DAY, 5), ['codex', '\u{1F600}', '', null], 1n, NOW),
  raw('theirs', at(DAY, 5), ['codex', '\uFF5E', '', null], 2n, NOW),
];

async function insertRaw(db: Db, rows: readonly Raw[]): Promise<void> {
  for (const { device, bucket: b, updatedAt } of rows) {
    await sql`insert into usage_buckets (device_num, hour_start, source, model, project_key, project_ref,
                                         input, cached_input, output, reasoning, total, billable, updated_at)
              values ((select num from devices where id = ${device}), ${b.hourStart}, ${b.source}, ${b.model},
                      ${b.projectKey}, ${b.projectRef}, ${b.input}, ${b.cached}, ${b.output}, ${b.reasoning},
                      ${b.total}, ${b.billable}, ${updatedAt})`.execute(db.kysely);
  }
}

/** The rows of each (device, day), by `${device}/${day}`. */
function byDeviceDay(rows: readonly Raw[]): Map<string, Raw[]> {
  const days = new Map<string, Raw[]>();
  for (const r of rows) {
    const key = `${r.device}/${dayOfHalfHour(r.bucket.hourStart)}`;
    days.set(key, [...(days.get(key) ?? []), r]);
  }
  return days;
}

const sorted = (buckets: readonly Bucket[]) => [...buckets].sort(compareBucketKeys);
const byDeviceThenKey = (a: Raw, b: Raw) =>
  a.device !== b.device ? (a.device < b.device ? -1 : 1) : compareBucketKeys(a.bucket, b.bucket);

async function deviceIds(db: Db): Promise<Map<bigint, string>> {
  const devices = await db.kysely.selectFrom('devices').select(['id', 'num']).execute();
  return new Map(devices.map((d) => [BigInt(d.num as bigint), d.id]));
}

async function storedDays(db: Db) {
  const ids = await deviceIds(db);
  const rows = await db.kysely
    .selectFrom('usage_device_days')
    .select(['device_num', 'day', 'buckets', 'updated_at'])
    .orderBy('device_num')
    .orderBy('day')
    .execute();
  return rows.map((r) => ({
    key: `${ids.get(BigInt(r.device_num))}/${Number(r.day)}`,
    day: Number(r.day),
    text: r.buckets,
    updatedAt: Number(r.updated_at),
  }));
}

/** The raw rows at schema 0013, with their device's id, in (device, key) order. */
async function storedRaw(db: Db): Promise<Raw[]> {
  const ids = await deviceIds(db);
  const rows = await sql<Record<string, unknown>>`select * from usage_buckets`.execute(db.kysely);
  return rows.rows
    .map((r): Raw => ({
      device: ids.get(BigInt(r.device_num as bigint)) as string,
      bucket: {
        hourStart: Number(r.hour_start),
        source: r.source as string,
        model: r.model as string,
        projectKey: r.project_key as string,
        projectRef: r.project_ref as string | null,
        input: BigInt(r.input as bigint),
        cached: BigInt(r.cached_input as bigint),
        output: BigInt(r.output as bigint),
        reasoning: BigInt(r.reasoning as bigint),
        total: BigInt(r.total as bigint),
        billable: BigInt(r.billable as bigint),
      },
      updatedAt: Number(r.updated_at),
    }))
    .sort(byDeviceThenKey);
}

/** A table's `create table` statement as SQLite keeps it. */
async function sqliteDefinition(db: Db, table: string): Promise<string | undefined> {
  const rows = await sql<{ sql: string }>`select sql from sqlite_master where name = ${table}`.execute(db.kysely);
  return rows.rows[0]?.sql;
}

describe(`upgrade across migration 0014 (${engine})`, () => {
  it('packs each device and UTC day into one row, every bucket exact, and unpacks them going down', async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateUpTo(db, BEFORE);
      for (const user of [USER, OTHER]) await seedUser(db, user, NOW);
      for (const [device, user] of [
        ['laptop', USER],
        ['desktop', USER],
        ['idle', USER],
        ['theirs', OTHER],
      ] as const)
        await seedDevice(db, device, user, NOW);
      // Inserted out of key order: the packed order is the key's, not the insertion's.
      await insertRaw(db, [...ROWS].reverse());
      await insertRaw(db, ASTRAL);

      await migrateToLatest(db);
      await expect(sql`select 1 from usage_buckets`.execute(db.kysely)).rejects.toThrow();
      const days = await storedDays(db);
      const expected = byDeviceDay([...ROWS, ...ASTRAL]);
      // One row per (device, day) holding buckets; the device without any has none.
      expect(days.map((d) => d.key).sort()).toEqual([...expected.keys()].sort());
      expect(days).toHaveLength(6);
      for (const stored of days) {
        const rows = expected.get(stored.key) as Raw[];
        const buckets = rows.map((r) => r.bucket);
        // Every count and string exactly as stored (bigints compared as bigints).
        expect(sorted(unpackDayBuckets(stored.day, stored.text)), stored.key).toEqual(sorted(buckets));
        expect(stored.updatedAt, stored.key).toBe(Math.max(...rows.map((r) => r.updatedAt)));
        if (stored.key === `theirs/${DAY}`) continue;
        // Byte for byte what the writers pack: on PostgreSQL too, as the migration builds the text
        // itself rather than with json_agg, whose output has a space after each comma.
        expect(stored.text, stored.key).toBe(packDayBuckets(stored.day, buckets));
      }
      const astral = days.find((d) => d.key === `theirs/${DAY}`);
      // Stored in the engines' (code point) order; unpacked in key (UTF-16) order.
      expect(parseDay(astral?.text ?? '[]').map((p) => p[2])).toEqual(['\uFF5E', '\u{1F600}']);
      expect(unpackDayBuckets(DAY, astral?.text ?? '[]').map((b) => b.model)).toEqual(['\u{1F600}', '\uFF5E']);
      expect(sorted(ASTRAL.map((r) => r.bucket)).map((b) => b.model)).toEqual(['\u{1F600}', '\uFF5E']);

      // A plain rowid table on SQLite: a packed day runs to kilobytes.
      if (db.dialect === 'sqlite')
        expect(await sqliteDefinition(db, 'usage_device_days')).not.toMatch(/without rowid/i);

      // Down: the same rows, each with its day's updated_at; the table as 0013 left it.
      await migrateUpTo(db, BEFORE);
      await expect(sql`select 1 from usage_device_days`.execute(db.kysely)).rejects.toThrow();
      const latest = new Map(days.map((d) => [d.key, d.updatedAt]));
      expect(await storedRaw(db)).toEqual(
        [...ROWS, ...ASTRAL]
          .map((r) => ({ ...r, updatedAt: latest.get(`${r.device}/${dayOfHalfHour(r.bucket.hourStart)}`) as number }))
          .sort(byDeviceThenKey),
      );
      if (db.dialect === 'sqlite') expect(await sqliteDefinition(db, 'usage_buckets')).toMatch(/without rowid/i);
      else {
        const pk = await sql<{ conname: string }>`select conname from pg_constraint
                                                   where conrelid = 'usage_buckets'::regclass and contype = 'p'`.execute(
          db.kysely,
        );
        expect(pk.rows).toEqual([{ conname: 'usage_buckets_pk' }]);
      }

      // And up again: the same days.
      await migrateToLatest(db);
      expect(await storedDays(db)).toEqual(days);
    } finally {
      await db.close();
      await drop();
    }
  });
});
