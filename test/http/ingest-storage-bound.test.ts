/**
 * The per-account bound on stored raw buckets (MAX_STORED_BUCKETS_PER_USER): one account may not
 * grow its stored buckets past the bound, whatever its devices, and a revoked device's buckets
 * still count. Each test is the attack first, then what must keep working. Runs on both SQLite
 * paths (in-memory: the app's thread; a database file: the writer thread) and on PostgreSQL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { storedBuckets } from '../helpers/stored-buckets.js';

const BOUND = 100;
/** A half-hour inside the test clock's day (T0 is 2026-11-01T12:00Z). */
const at = (halfHours: number) => new Date(Date.UTC(2026, 10, 1) + halfHours * 1_800_000).toISOString();
/** `n` buckets of one half-hour, each of a different model. */
const wide = (halfHour: number, n: number, tokens = 5, first = 0): BucketInput[] =>
  Array.from({ length: n }, (_, i) => ({
    hour_start: at(halfHour),
    source: 'gemini',
    model: `m${first + i}`,
    input_tokens: tokens,
    total_tokens: tokens,
  }));

const storedOf = async (t: TestApp, user: TestUser) =>
  (await storedBuckets(t.db.kysely)).filter((b) => b.deviceId !== null && owners.get(b.deviceId) === user.id).length;
/** Device id → user id of the devices a test issued (storedBuckets names devices, not users). */
const owners = new Map<string, string>();
const device = async (t: TestApp, user: TestUser, name: string) => {
  const d = await issueDevice(t, user, name);
  owners.set(d.deviceId, user.id);
  return d;
};
const status = async (t: TestApp, user: TestUser) => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/functions/svc-user-status',
    headers: bearer(user.accessToken),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ storage?: { stored_buckets: number; max_stored_buckets: number } }>();
};

for (const sqliteFile of engine === 'sqlite' ? [false, true] : [false]) {
  const where = engine === 'sqlite' ? (sqliteFile ? 'sqlite, writer thread' : 'sqlite, in memory') : engine;

  describe(`stored buckets per account (${where})`, () => {
    let t: TestApp;
    let user: TestUser;
    afterEach(async () => t.close());

    const start = async () => {
      t = await createTestApp({ env: { MAX_STORED_BUCKETS_PER_USER: String(BOUND) }, sqliteFile });
      user = await signUp(t);
    };

    it('refuses a growing upload past the bound with 409, stores nothing of it; revoked devices still count', async () => {
      await start();
      // The attack: several devices uploading new buckets. 2 × 40 + 20 fill the bound exactly.
      const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((name) => device(t, user, name)));
      for (const [i, d] of [a!, b!].entries()) {
        expect((await ingest(t, d.token, wide(2 * i, 20))).statusCode).toBe(200);
        expect((await ingest(t, d.token, wide(2 * i + 1, 20))).statusCode).toBe(200);
      }
      expect((await ingest(t, c!.token, wide(8, 20))).statusCode).toBe(200);
      expect(await storedOf(t, user)).toBe(BOUND);
      expect((await status(t, user)).storage).toEqual({ stored_buckets: BOUND, max_stored_buckets: BOUND });

      // One bucket more, from any device, in any half-hour: 409, nothing of it stored.
      const more = await ingest(t, c!.token, [...wide(8, 20), ...wide(9, 1)]);
      expect(more.statusCode, more.body).toBe(409);
      expect(more.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(more.json()).toMatchObject({ status: 409, code: 'conflict' });
      expect(more.json().detail).toMatch(/100 .*buckets/);
      expect(more.json().detail).toMatch(/administrator/);
      expect((await ingest(t, a!.token, wide(30, 1, 5, 99))).statusCode).toBe(409);
      expect(await storedOf(t, user)).toBe(BOUND);

      // Uploads that do not grow the count still go through: the same buckets with new counts, a swap
      // of a model for another (one removed, one added), and removing project variants.
      expect((await ingest(t, a!.token, wide(0, 20, 9))).statusCode).toBe(200);
      const swap = [
        ...wide(1, 19, 5, 1),
        { hour_start: at(1), source: 'gemini', model: 'm0', total_tokens: 3, project_key: 'p/q' },
      ];
      expect((await ingest(t, a!.token, swap)).statusCode).toBe(200); // m0 without project → m0 in p/q
      expect(await storedOf(t, user)).toBe(BOUND);

      // Revoking a device frees its device slot but not its buckets: a new device is still refused.
      const revoked = await t.app.inject({
        method: 'POST',
        url: '/functions/svc-device-revoke',
        headers: bearer(user.accessToken),
        payload: { device_id: a!.deviceId },
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      const fresh = await device(t, user, 'fresh');
      const refused = await ingest(t, fresh.token, wide(40, 1));
      expect(refused.statusCode, refused.body).toBe(409);
      expect(await storedOf(t, user)).toBe(BOUND);

      // Another account has a bound of its own.
      const other = await signUp(t);
      const theirs = await device(t, other, 'theirs');
      expect((await ingest(t, theirs.token, wide(0, 50))).statusCode).toBe(200);
      expect(await storedOf(t, other)).toBe(50);
      expect((await status(t, other)).storage).toEqual({ stored_buckets: 50, max_stored_buckets: BOUND });
    });

    it('counts the uploads of one group against each other: together they cannot pass the bound', async () => {
      await start();
      const devices = await Promise.all([0, 1, 2].map((i) => device(t, user, `box${i}`)));
      // Three uploads of 40 new buckets arrive together: two fit, the third does not.
      const answers = await Promise.all(devices.map((d, i) => ingest(t, d.token, wide(i, 40))));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 409]);
      expect(await storedOf(t, user)).toBe(80);
      expect((await status(t, user)).storage?.stored_buckets).toBe(80);
    });
  });
}
