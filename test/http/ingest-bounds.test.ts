/**
 * What one account can make the server store: a bound per (user, UTC day) on uploaded tokens,
 * a bound on the buckets a device keeps per half-hour, checked sums, and a leaderboard refresh that
 * survives one user's out-of-range row. Each test is the attack first, then what must keep working.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDeviceBuckets, sumUserUsage } from '../helpers/stored-usage.js';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';
import { putStoredDay } from '../helpers/stored-buckets.js';

const TRILLION = 1_000_000_000_000;
/** A day inside the test clock's week and month (T0 is 2026-11-01T12:00Z). */
const at = (halfHours: number) => new Date(Date.UTC(2026, 10, 1) + halfHours * 1_800_000).toISOString();
/** `n` buckets of one half-hour, each of a different model, `tokens` in input and total (billable = total for gemini). */
const wide = (halfHour: number, n: number, tokens: number, first = 0): BucketInput[] =>
  Array.from({ length: n }, (_, i) => ({
    hour_start: at(halfHour),
    source: 'gemini',
    model: `m${first + i}`,
    input_tokens: tokens,
    total_tokens: tokens,
  }));

const refresh = (t: TestApp) =>
  t.app.inject({
    method: 'POST',
    url: '/functions/svc-leaderboard-refresh',
    headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
  });
const countEvents = async (t: TestApp) =>
  Number(
    (
      await t.db.kysely
        .selectFrom('ingest_events')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const board = (t: TestApp, period = 'total') =>
  t.app.inject({ method: 'GET', url: `/functions/svc-leaderboard?period=${period}` });

describe(`ingest bounds (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;
  afterEach(async () => t.close());

  describe('tokens per user and UTC day', () => {
    beforeEach(async () => {
      t = await createTestApp({ sqliteFile: true }); // default bound: 10^13 a day; on SQLite, the writer thread
      user = await signUp(t);
    });

    it('refuses uploads past the day bound with 400 and stores nothing of them; the leaderboard keeps working', async () => {
      const first = await issueDevice(t, user, 'first');
      // Ten buckets of 10^12: exactly the bound.
      const full = await ingest(t, first.token, wide(20, 10, TRILLION));
      expect(full.statusCode, full.body).toBe(200);
      // The attack: many devices uploading huge counts on the same day.
      const events = await countEvents(t);
      for (let d = 0; d < 5; d += 1) {
        const device = await issueDevice(t, user, `attacker${d}`);
        const res = await ingest(t, device.token, wide(21 + d, 10, TRILLION));
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code: 'invalid_request' });
        expect(res.json().detail).toMatch(/2026-11-01/);
      }
      const one = await issueDevice(t, user, 'one more token');
      expect((await ingest(t, one.token, [{ hour_start: at(30), model: 'x', total_tokens: 1 }])).statusCode).toBe(400);
      expect(await countEvents(t)).toBe(events);
      expect(await sumUserUsage(t.db.kysely, user.id)).toMatchObject({
        input: 10n * BigInt(TRILLION),
        total: 10n * BigInt(TRILLION),
      });
      // Another day has its own bound; lowering a full day is always allowed.
      expect(
        (await ingest(t, one.token, [{ hour_start: at(48 + 2), model: 'x', total_tokens: TRILLION }])).statusCode,
      ).toBe(200);
      expect((await ingest(t, first.token, wide(20, 10, 5))).statusCode).toBe(200);
      expect((await ingest(t, one.token, [{ hour_start: at(30), model: 'x', total_tokens: 1 }])).statusCode).toBe(200);

      const refreshed = await refresh(t);
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      const page = await board(t);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json().entries[0]).toMatchObject({ rank: 1, total_tokens: String(50n + 1n + BigInt(TRILLION)) });
    });

    it('counts the uploads of one group against each other', async () => {
      const devices = await Promise.all([0, 1, 2].map((d) => issueDevice(t, user, `box${d}`)));
      // Three uploads of 4·10^12 on one day arrive together: the first two fit, the third does not.
      const answers = await Promise.all(devices.map((d, i) => ingest(t, d.token, wide(10 + i, 4, TRILLION))));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 400]);
      expect((await sumUserUsage(t.db.kysely, user.id)).total).toBe(8n * BigInt(TRILLION));
    });
  });

  describe('buckets per device and half-hour', () => {
    beforeEach(async () => {
      t = await createTestApp({ env: { INGEST_MAX_BUCKETS_PER_HALF_HOUR: '10' }, sqliteFile: true });
      user = await signUp(t);
    });

    it('refuses an upload that would store more (model, project) buckets in a half-hour than the bound', async () => {
      const device = await issueDevice(t, user);
      expect((await ingest(t, device.token, wide(4, 10, 7))).statusCode).toBe(200);
      const more = await ingest(t, device.token, wide(4, 1, 7, 10)); // an eleventh model
      expect(more.statusCode, more.body).toBe(400);
      expect(more.json().detail).toMatch(/more than 10 .*2026-11-01T02:00:00/);
      const projects = await ingest(t, device.token, [
        { hour_start: at(4), source: 'gemini', model: 'm0', total_tokens: 1, project_key: 'a/b' },
        { hour_start: at(4), source: 'gemini', model: 'm0', total_tokens: 1, project_key: 'a/c' },
      ]);
      expect(projects.statusCode).toBe(400); // m0 goes from one stored variant to two
      // Within the bound everything still works: the same buckets again, a swap of one variant, another half-hour.
      expect((await ingest(t, device.token, wide(4, 10, 8))).statusCode).toBe(200);
      expect(
        (
          await ingest(t, device.token, [
            { hour_start: at(4), source: 'gemini', model: 'm0', total_tokens: 1, project_key: 'a/b' },
          ])
        ).statusCode,
      ).toBe(200);
      expect((await ingest(t, device.token, wide(5, 10, 7))).statusCode).toBe(200);
      // Another device has its own half-hours.
      const other = await issueDevice(t, user, 'other');
      expect((await ingest(t, other.token, wide(4, 10, 7, 20))).statusCode).toBe(200);
    });

    it('reads back only the groups an upload mentions when its range holds many more rows (stored before the bound)', async () => {
      const device = await issueDevice(t, user);
      const hourStart = Date.parse(at(8));
      await putStoredDay(
        t.db.kysely,
        device.deviceId,
        Array.from({ length: 300 }, (_, i) => ({
          hourStart,
          source: 'gemini',
          model: `old${i}`,
          projectKey: '',
          projectRef: null,
          input: 0n,
          cached: 0n,
          output: 0n,
          reasoning: 0n,
          total: 1n,
          billable: 1n,
        })),
      );
      const res = await ingest(t, device.token, [
        { hour_start: at(8), source: 'gemini', model: 'old7', total_tokens: 5 },
        { hour_start: at(9), source: 'gemini', model: 'new', total_tokens: 2 },
      ]);
      expect(res.json()).toMatchObject({ inserted: 2, skipped: 0 });
      const rollup = await t.db.kysely
        .selectFrom('usage_rollup')
        .select(['model', 'total'])
        .where('user_id', '=', user.id)
        .orderBy('model')
        .execute();
      expect(rollup).toEqual([
        { model: 'new', total: 2n },
        { model: 'old7', total: 4n }, // the rollup knew nothing of the stored 1: the upload moves it by 5 − 1
      ]);
    });
  });

  describe('sums past 64 bits and the leaderboard', () => {
    beforeEach(async () => {
      t = await createTestApp();
      user = await signUp(t);
    });

    it('refuses an upload whose read-model sums would overflow (400, the other uploads of its group stored)', async () => {
      const device = await issueDevice(t, user);
      const bystander = await signUp(t);
      const theirs = await issueDevice(t, bystander, 'theirs');
      // An all-time total stored before the day bound existed, a few tokens below 2^63 (gemini's m0 is an 'other' model).
      await sql`insert into leaderboard_user_totals (user_id, gpt, claude, other) values (${user.id}, 0, 0, ${2n ** 63n - 5n})`.execute(
        t.db.kysely,
      );
      const [mine, other] = await Promise.all([
        ingest(t, device.token, wide(6, 1, 10)),
        ingest(t, theirs.token, wide(6, 1, 10)),
      ]);
      expect(mine.statusCode, mine.body).toBe(400);
      expect(other.statusCode, other.body).toBe(200);
      const row = await t.db.kysely
        .selectFrom('leaderboard_user_totals')
        .select('other')
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.other).toBe(2n ** 63n - 5n); // an integer still: nothing was added
      expect(await listDeviceBuckets(t.db.kysely, device.deviceId)).toEqual([]); // the user's one device
    });

    it('a refresh ranks a user whose stored totals are out of range instead of failing for everyone', async () => {
      const device = await issueDevice(t, user);
      expect((await ingest(t, device.token, wide(2, 1, 100))).statusCode).toBe(200);
      const victim = await signUp(t);
      const max = 2n ** 63n - 1n;
      // Each family fits 64 bits, their sum does not; on SQLite an overflowed sum is stored as a float.
      await sql`insert into leaderboard_user_totals (user_id, gpt, claude, other) values (${victim.id}, ${max}, ${max}, ${max})`.execute(
        t.db.kysely,
      );
      if (engine === 'sqlite')
        await sql`update leaderboard_user_totals set gpt = 9.2875e18 where user_id = ${victim.id}`.execute(t.db.kysely);
      const refreshed = await refresh(t);
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      const page = await board(t);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json().entries.map((e: { rank: number; total_tokens: string }) => [e.rank, e.total_tokens])).toEqual([
        [1, String(max - (max % 3n))],
        [2, '100'],
      ]);
    });
  });
});
