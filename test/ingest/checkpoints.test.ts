/**
 * WAL checkpoints of a SQLite database file that takes uploads (src/db/sqlite-checkpoints.ts):
 * a checkpoint thread copies the WAL into the database file beside the writer thread, and the WAL
 * still starts over past its bound. Engine-specific: a SQLite file whatever the pass, so it runs in the SQLite pass only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { CheckpointPolicy } from '../../src/db/sqlite-checkpoints.js';
import { unpackDayBuckets } from '../../src/domain/device-day-buckets.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import type { IngestWriter } from '../../src/ingest/types.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';
import { storedBuckets } from '../helpers/stored-buckets.js';

const NOW = Date.UTC(2026, 10, 1, 12);
const DAY_MS = 86_400_000;
const USER = '00000000-0000-4000-8000-000000000001';
const RATES: TokenRates = { input: 1_000_000n, cached: 1_000_000n, output: 1_000_000n, reasoning: 1_000_000n };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The upload of day `n` before NOW: three buckets on a day of their own, so every upload writes new pages. */
const upload = (n: number) => ({
  userId: USER,
  deviceId: 'a',
  now: NOW,
  buckets: [0, 1, 2].map((k) =>
    seedBucket(BigInt(n * 10 + k), { hourStart: Date.UTC(2026, 10, 1) - n * DAY_MS + k * 1_800_000 }),
  ),
  subscriptions: undefined,
});

describe('WAL checkpoints beside the SQLite writer thread', () => {
  let dir: string;
  let file: string;
  let db: SqliteDb;
  let writer: IngestWriter | undefined;

  const open = async (checkpoints: CheckpointPolicy) => {
    db = openSqlite(file, 5000);
    await migrateToLatest(db);
    await seedUser(db, USER, NOW);
    await seedDevice(db, 'a', USER, NOW);
    db.sqlite.pragma('wal_checkpoint(TRUNCATE)'); // the schema and seeds in the file, the WAL empty
    writer = createIngestWriter(db, () => RATES, undefined, checkpoints);
    return writer;
  };

  /**
   * Raw buckets in the database file alone, without its WAL (read from a copy of the file): those
   * of every `usage_device_days` row there, unpacked.
   */
  const bucketsInFile = (): number | undefined => {
    const copy = path.join(dir, 'copy', 'file-only.db');
    fs.rmSync(path.dirname(copy), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(copy));
    fs.copyFileSync(file, copy);
    try {
      const alone = new BetterSqlite3(copy);
      try {
        const days = alone.prepare('SELECT day, buckets FROM usage_device_days').all() as {
          day: number;
          buckets: string;
        }[];
        return days.reduce((n, d) => n + unpackDayBuckets(d.day, d.buckets).length, 0);
      } finally {
        alone.close();
      }
    } catch {
      return undefined; // copied in the middle of a checkpoint's writes: read again
    }
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-checkpoints-'));
    file = path.join(dir, 'tokentally.db');
  });
  afterEach(async () => {
    await writer?.close();
    writer = undefined;
    await db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies uploads into the database file in the background, with no checkpoint in any commit', async () => {
    // A bound no commit reaches: only the checkpoint thread can copy the pages.
    const uploads = await open({ everyMs: 5, restartFrames: 1_000_000 });
    expect(bucketsInFile()).toBe(0);
    await uploads.apply(upload(1)); // starts the threads
    for (let n = 2; n <= 5; n += 1) await uploads.apply(upload(n));

    let seen: number | undefined;
    for (let waited = 0; waited < 5000 && seen !== 15; waited += 10) {
      await sleep(10);
      seen = bucketsInFile();
    }
    expect(seen).toBe(15);
  });

  it('keeps the WAL within its bound while uploads keep coming: the writer finishes the copy and the WAL starts over', async () => {
    const restartFrames = 40;
    const uploads = await open({ everyMs: 1, restartFrames });
    const pageSize = Number(db.sqlite.pragma('page_size', { simple: true }));
    const frames = () => Math.max(0, (fs.statSync(`${file}-wal`).size - 32) / (pageSize + 24));
    // The WAL header's first salt grows by one each time the WAL starts over from its beginning.
    const salt = () => {
      const header = Buffer.alloc(20);
      const fd = fs.openSync(`${file}-wal`, 'r');
      try {
        fs.readSync(fd, header, 0, 20, 0);
      } finally {
        fs.closeSync(fd);
      }
      return header.readUInt32BE(16);
    };
    let most = 0;
    let restarts = 0;
    let last: number | undefined;
    for (let n = 1; n <= 300; n += 1) {
      await uploads.apply(upload(n));
      most = Math.max(most, frames());
      const now = salt();
      if (last !== undefined && now !== last) restarts += 1;
      last = now;
    }
    // 300 uploads of new pages write ~1,800 frames; without the writer's own copy past the bound
    // the WAL never starts over (the build before the checkpoint thread's bound reached 1,015
    // frames, and 0 restarts). Here it starts over every few uploads (78–96 times in runs on a
    // loaded machine, fewer when the suite's other files starve it), so any 10 restarts tell the two
    // apart. The file's high-water mark is the bound plus what was written while the thread's copy
    // held the WAL: a starved thread stretches it without limit (58–679 frames seen under a load
    // average of 20, 1,247 once beside the PostgreSQL pass on a slower machine), so it is not
    // asserted here; it depends on the scheduler, not on the code.
    expect(restarts).toBeGreaterThanOrEqual(10);
    expect(most).toBeGreaterThan(restartFrames / 2);
    expect((await storedBuckets(db.kysely)).length).toBe(900);
  });
});
