/**
 * The team-side read model (migration 0029) under concurrent writers, PostgreSQL only (SQLite
 * writes one transaction at a time): a member's uploads from several devices, and another
 * member's, run on the pool's connections at the same time as that member joins and leaves the team
 * again and again. Each join or leave moves the member's whole history in or out of the team's rows
 * under the member's ingest lock, and each upload adds to the teams it read under that lock, so no
 * delta is lost or counted twice: afterwards the team's rows equal the sums over its members.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { bucketsFrom } from '../helpers/team-history.js';
import { createTestApp, T0, testDatabaseUrl, type TestApp } from '../helpers/app.js';
import { expectTeamModelInStep } from '../helpers/team-usage-model.js';

const SEED = 20_261_131;
console.info(`team-usage-model-concurrency: fast-check seed ${SEED}`);

const FIRST = T0 - 3 * 86_400_000;
const UPLOADS = 14;
const ROUNDS = 10;

const upload = fc.array(
  fc.record({
    slot: fc.integer({ min: 0, max: 2 * 48 }),
    source: fc.constantFrom('codex', 'claude'),
    model: fc.constantFrom('gpt-5', 'claude-sonnet-4-5'),
    input: fc.integer({ min: 0, max: 1_000_000 }),
    output: fc.integer({ min: 0, max: 1_000_000 }),
  }),
  { minLength: 1, maxLength: 20 },
);

describe.skipIf(!testDatabaseUrl)('the team-side usage model under concurrent uploads and membership changes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { INGEST_BURST: '1000', INGEST_RATE_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (user: TestUser, op: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/functions/svc-${op}`, headers: bearer(user.accessToken), payload });

  it('loses and doubles no delta while a member joins and leaves during their uploads', async () => {
    const [owner, mover, other] = [await signUp(t), await signUp(t), await signUp(t)];
    const team = (await post(owner, 'team-create', { name: 'Busy' })).json<{ id: string }>().id;
    const invite = async (): Promise<string> =>
      (await post(owner, 'team-invite-create', { team_id: team, max_uses: 100 })).json<{ invite_token: string }>()
        .invite_token;
    expect((await post(other, 'team-join', { invite_token: await invite() })).statusCode).toBe(200);
    const devices = [
      await issueDevice(t, mover, 'one'),
      await issueDevice(t, mover, 'two'),
      await issueDevice(t, mover, 'three'),
      await issueDevice(t, other, 'four'),
    ];
    const batches = fc.sample(upload, { seed: SEED, numRuns: devices.length * UPLOADS });
    const uploads = devices.map(async (device, d) => {
      for (let i = 0; i < UPLOADS; i++) {
        const res = await ingest(t, device.token, bucketsFrom(FIRST, batches[d * UPLOADS + i] ?? []));
        expect(res.statusCode, res.body).toBe(200);
      }
    });
    const token = await invite();
    const membership = (async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const joined = await post(mover, 'team-join', { invite_token: token });
        expect(joined.statusCode, joined.body).toBe(200);
        const left = await post(mover, 'team-member-remove', { team_id: team, user_id: mover.id });
        expect(left.statusCode, left.body).toBe(200);
      }
      expect((await post(mover, 'team-join', { invite_token: token })).statusCode).toBe(200);
    })();
    await Promise.all([...uploads, membership]);
    await expectTeamModelInStep(t.db.kysely, 'after the concurrent writes');
    const rows = await t.db.kysely
      .selectFrom('team_usage_rollup')
      .select('team_id')
      .where('team_id', '=', team)
      .execute();
    expect(rows.length).toBeGreaterThan(50);
  });
});
