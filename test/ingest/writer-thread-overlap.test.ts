/**
 * The SQLite writer thread is sent groups while it writes others (src/ingest/sqlite/thread/thread.ts,
 * sqlite/thread/join.ts): each sender is answered with its own uploads' outcomes whether or not
 * its group was joined with others, the thread says when it has nothing left to write, and a joined
 * group that fails as a whole still fails only the upload at fault once written again one by one.
 * Runs on a database file, the only kind with a writer thread, in both passes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { DAY_MS } from '../../src/domain/calendar.js';
import { Unauthenticated } from '../../src/domain/errors.js';
import { DEFAULT_INGEST_BOUNDS } from '../../src/ingest/core/bounds.js';
import { resolveRates, type RateTable } from '../../src/ingest/core/day-rates.js';
import type { GroupReply, GroupWork } from '../../src/ingest/sqlite/group-write.js';
import { createGroupRunner, type GroupRunner } from '../../src/ingest/sqlite/group-runner.js';
import { createIngestWriter } from '../../src/ingest/store.js';
import type { IngestBatch, IngestWriter } from '../../src/ingest/types.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { seedBucket, seedDevice, seedUser } from '../helpers/seed.js';
import { storedBuckets } from '../helpers/stored-buckets.js';

const NOW = Date.UTC(2026, 10, 1, 12);
const RATE = 1_000_000n;
const RATES: TokenRates = { input: RATE, cached: RATE, output: RATE, reasoning: RATE };
const user = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** An upload of `tokens` on day `day` (days before 2026-11-01) from device `deviceId` of user `u`. */
const batch = (u: number, deviceId: string, day: number, tokens: bigint): IngestBatch => ({
  userId: user(u),
  deviceId,
  now: NOW,
  buckets: [seedBucket(tokens, { hourStart: Date.UTC(2026, 10, 1, 10) - day * DAY_MS })],
  subscriptions: undefined,
});

function work(batches: IngestBatch[]): GroupWork {
  const rates: RateTable = new Map();
  for (const b of batches) resolveRates(b.buckets, () => RATES, rates);
  return { batches, fingerprint: null, rates };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('groups sent to the SQLite writer thread while it writes', () => {
  let dir: string;
  let db: SqliteDb;
  let runner: GroupRunner | undefined;
  let writer: IngestWriter | undefined;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-overlap-'));
    db = openSqlite(path.join(dir, 'tokentally.db'), 5000);
    await migrateToLatest(db);
    for (let u = 1; u <= 4; u += 1) {
      await seedUser(db, user(u), NOW);
      for (let d = 0; d < 4; d += 1) await seedDevice(db, `u${u}d${d}`, user(u), NOW);
    }
  });
  afterEach(async () => {
    await runner?.close();
    await writer?.close();
    runner = undefined;
    writer = undefined;
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Each device's stored tokens over all its buckets. */
  const storedTotals = async () => {
    const totals: Record<string, bigint> = {};
    for (const b of await storedBuckets(db.kysely))
      if (b.deviceId !== null) totals[b.deviceId] = (totals[b.deviceId] ?? 0n) + b.total;
    return totals;
  };

  it("answers each group with its own uploads' outcomes, and says when it has nothing left to write", async () => {
    const groups = createGroupRunner(db, DEFAULT_INGEST_BOUNDS);
    runner = groups;
    expect(groups.overlaps).toBe(true);
    expect(groups.waitsForWork()).toBe(true);
    // Held by the app, the write lock keeps the groups from the thread; let go, they reach it together.
    const release = await db.writeLock.acquire();
    const sent = [
      groups.run(work([batch(1, 'u1d0', 1, 10n), batch(1, 'u1d1', 1, 11n)])),
      groups.run(work([batch(2, 'gone', 2, 99n), batch(2, 'u2d0', 2, 20n)])),
      groups.run(work([batch(3, 'u3d0', 3, 30n)])),
      groups.run(work([batch(4, 'u4d0', 4, 40n), batch(4, 'u4d1', 4, 41n), batch(4, 'u4d2', 4, 42n)])),
    ];
    release();
    const replies: GroupReply[] = await Promise.all(sent);
    const shapes = replies.map((r) =>
      r.kind === 'written'
        ? r.outcomes.map((o) =>
            o.ok ? o.result.inserted : o.error instanceof Unauthenticated ? 'gone' : String(o.error),
          )
        : r.kind,
    );
    expect(shapes).toEqual([[1, 1], ['gone', 1], [1], [1, 1, 1]]);
    expect(await storedTotals()).toEqual({
      u1d0: 10n,
      u1d1: 11n,
      u2d0: 20n,
      u3d0: 30n,
      u4d0: 40n,
      u4d1: 41n,
      u4d2: 42n,
    });

    for (let waited = 0; !groups.waitsForWork(); waited += 1) {
      expect(waited).toBeLessThan(5000);
      await sleep(1);
    }
    const next = groups.run(work([batch(1, 'u1d2', 5, 5n)]));
    expect(groups.waitsForWork()).toBe(false); // sent: the thread has work
    expect(await next).toMatchObject({ kind: 'written' });
  });

  it('fails only the upload at fault when a group fails as a whole, among uploads of many turns', async () => {
    const uploads = createIngestWriter(db, () => RATES, DEFAULT_INGEST_BOUNDS);
    writer = uploads;
    // An all-time total two tokens below 2^63: user 3's next upload overflows it in the group's
    // read-model phase, which fails the whole (joined) group; written again one by one, only it fails.
    await sql`insert into leaderboard_user_totals (user_id, gpt, claude, other) values (${user(3)}, 0, ${2n ** 63n - 2n}, 0)`.execute(
      db.kysely,
    );
    const answers: Promise<unknown>[] = [];
    const expected: Record<string, bigint> = {};
    for (let turn = 0; turn < 6; turn += 1) {
      for (let u = 1; u <= 4; u += 1) {
        const device = `u${u}d${turn % 4}`;
        const tokens = BigInt(100 * turn + u);
        answers.push(
          uploads.apply(batch(u, device, turn, tokens)).then(
            (r) => r.inserted,
            (e: unknown) => String(e),
          ),
        );
        if (u !== 3) expected[device] = (expected[device] ?? 0n) + tokens;
      }
      await new Promise<void>((resolve) => setImmediate(resolve)); // the next uploads arrive a turn later
    }
    const settled = await Promise.all(answers);
    settled.forEach((answer, i) => {
      if (i % 4 === 2) expect(answer).toMatch(/InvalidInput: .*stored sums past what they can hold/);
      else expect(answer).toBe(1);
    });
    expect(await storedTotals()).toEqual(expected);
  });
});
