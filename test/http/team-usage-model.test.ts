/**
 * The team-side read model (migration 0029) through the HTTP interface, both engines: over a
 * generated sequence of uploads (re-uploads that change counts among them), team creation, joins,
 * leaves, removals, re-joins, team deletion and account deletion, every team's
 * `team_usage_rollup` and `team_usage_daily` rows equal the sums over its current members' rows
 * after each step. The seed is fixed and printed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { bucketsFrom } from '../helpers/team-history.js';
import { createTestApp, engine, T0, type TestApp } from '../helpers/app.js';
import { expectTeamModelInStep } from '../helpers/team-usage-model.js';

const SEED = 20_261_130;
console.info(`team-usage-model: fast-check seed ${SEED}`);

const USERS = 5;
const FIRST = T0 - 6 * 86_400_000;

const who = fc.integer({ min: 0, max: USERS - 1 });
const team = fc.integer({ min: 0, max: 3 });
const bucket = fc.record({
  slot: fc.integer({ min: 0, max: 5 * 48 }),
  source: fc.constantFrom('codex', 'claude'),
  model: fc.constantFrom('gpt-5', 'claude-sonnet-4-5'),
  input: fc.integer({ min: 0, max: 1_000_000 }),
  output: fc.integer({ min: 0, max: 1_000_000 }),
});
const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('upload' as const),
      who,
      buckets: fc.array(bucket, { minLength: 1, maxLength: 12 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), who }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('join' as const), who, team }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('leave' as const), who, team }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), who, team }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-team' as const), team }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-account' as const), who }) },
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

interface Actor {
  user: TestUser;
  device: string;
}

describe(`the team-side usage model through membership changes (${engine})`, () => {
  let t: TestApp;
  const actors: Actor[] = [];
  /** Teams created so far: their names sort in creation order (team ids are random). */
  let created = 0;

  const post = (user: TestUser, op: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/functions/svc-${op}`, headers: bearer(user.accessToken), payload });
  const newActor = async (): Promise<Actor> => {
    const user = await signUp(t);
    return { user, device: (await issueDevice(t, user)).token };
  };
  /** The teams as stored, oldest first: their ids and owners. */
  const teams = async () => {
    const rows = await t.db.kysely.selectFrom('teams').select(['id']).orderBy('name').execute();
    return Promise.all(
      rows.map(async ({ id }) => ({
        id,
        owner: (
          await t.db.kysely
            .selectFrom('team_members')
            .select('user_id')
            .where('team_id', '=', id)
            .where('role', '=', 'owner')
            .orderBy('user_id')
            .executeTakeFirst()
        )?.user_id,
      })),
    );
  };
  const actorOf = (userId: string | undefined) => actors.find((a) => a.user.id === userId);

  async function apply(s: Step): Promise<string> {
    const all = await teams();
    const tm = 'team' in s ? all[s.team % Math.max(all.length, 1)] : undefined;
    const me = 'who' in s ? (actors[s.who] as Actor) : undefined;
    if (s.kind === 'upload' && me) {
      const res = await ingest(t, me.device, bucketsFrom(FIRST, s.buckets));
      expect(res.statusCode, res.body).toBe(200);
      return 'upload';
    } else if (s.kind === 'create' && me) {
      created += 1;
      const name = `T${String(created).padStart(3, '0')}`;
      expect((await post(me.user, 'team-create', { name })).statusCode).toBe(200);
      return 'create';
    } else if (s.kind === 'join' && me && tm) {
      const owner = actorOf(tm.owner) as Actor;
      const link = await post(owner.user, 'team-invite-create', { team_id: tm.id });
      expect(link.statusCode, link.body).toBe(200);
      const token = link.json<{ invite_token: string }>().invite_token;
      const before = await t.db.kysely
        .selectFrom('team_members')
        .select('user_id')
        .where('team_id', '=', tm.id)
        .where('user_id', '=', me.user.id)
        .executeTakeFirst();
      expect((await post(me.user, 'team-join', { invite_token: token })).statusCode).toBe(200);
      return before === undefined ? 'join' : 'join (a member already)';
    } else if ((s.kind === 'leave' || s.kind === 'remove') && tm) {
      // One of the team's members leaves, or the owner removes them; the last owner is refused (409).
      const members = await t.db.kysely
        .selectFrom('team_members')
        .select('user_id')
        .where('team_id', '=', tm.id)
        .execute();
      // In the order of the actors (user ids are random): the same member on every run.
      const inTeam = actors.filter((a) => members.some((m) => m.user_id === a.user.id));
      const leaving = inTeam[s.who % inTeam.length] as Actor;
      const by = s.kind === 'leave' ? leaving : (actorOf(tm.owner) as Actor);
      const res = await post(by.user, 'team-member-remove', { team_id: tm.id, user_id: leaving.user.id });
      expect([200, 404, 409]).toContain(res.statusCode);
      return `${s.kind} ${res.statusCode}`;
    } else if (s.kind === 'delete-team' && tm) {
      const owner = actorOf(tm.owner) as Actor;
      expect((await post(owner.user, 'team-delete', { team_id: tm.id })).statusCode).toBe(200);
      return 'delete-team';
    } else if (s.kind === 'delete-account' && me) {
      const res = await post(me.user, 'account-delete', { password: 'correct horse' });
      expect(res.statusCode, res.body).toBe(200);
      actors[s.who] = await newActor();
      return 'delete-account';
    }
    return 'skipped';
  }

  beforeAll(async () => {
    // On SQLite a database file: uploads are written on the ingest writer thread, as in production.
    t = await createTestApp({ sqliteFile: true });
    for (let i = 0; i < USERS; i++) actors.push(await newActor());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps every team row the sum of its current members’ rows after each step', async () => {
    const [steps] = fc.sample(fc.array(step, { minLength: 120, maxLength: 120 }), { seed: SEED, numRuns: 1 });
    const done = new Map<string, number>();
    for (const [i, s] of (steps ?? []).entries()) {
      // A second a step: joining times differ, so a deleted owner's heir is the same on every run.
      t.clock.advance(1000);
      const what = await apply(s);
      done.set(what, (done.get(what) ?? 0) + 1);
      await expectTeamModelInStep(t.db.kysely, `after step ${i} (${what})`);
    }
    console.info('team-usage-model: steps done', Object.fromEntries([...done].sort()));
    // The sequence exercises every change (the seed is fixed; a new one must too).
    for (const what of ['upload', 'create', 'join', 'leave 200', 'remove 200', 'delete-team', 'delete-account'])
      expect(done.get(what) ?? 0, what).toBeGreaterThanOrEqual(2);
    const stored = await t.db.kysely.selectFrom('team_usage_rollup').select('team_id').execute();
    expect(stored.length).toBeGreaterThan(0);
  });
});
