/**
 * @fileoverview A team of two members with a generated history, for the team usage property tests:
 * both sign up and upload the half-hours the history gives them through `svc-ingest`; the first
 * creates the team after a third of the uploads and the second joins by invite after two thirds, so
 * the team-side read model (migration 0029) is built both ways: from a member's history when they
 * join, and by the uploads after. The team-side model is then checked against its members' rows.
 */
import { expect } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from './actors.js';
import type { TestApp } from './app.js';
import { expectTeamModelInStep } from './team-usage-model.js';

const HALF_HOUR = 1_800_000;

/** A generated bucket: a half-hour counted from the history's first day, and its counts. */
export interface SlotBucket {
  readonly slot: number;
  readonly source: string;
  readonly model: string;
  readonly input: number;
  readonly output: number;
}

/** One upload of a generated history: whose (0 or 1), and half-hours counted from the first day. */
export interface HistoryUpload {
  readonly who: number;
  readonly buckets: readonly SlotBucket[];
}

/** Generated buckets as `svc-ingest` takes them, their slots counted from `firstDayMs`. */
export function bucketsFrom(firstDayMs: number, buckets: readonly SlotBucket[]): BucketInput[] {
  return buckets.map((b) => ({
    hour_start: new Date(firstDayMs + b.slot * HALF_HOUR).toISOString(),
    source: b.source,
    model: b.model,
    input_tokens: b.input,
    output_tokens: b.output,
    total_tokens: b.input + b.output,
  }));
}

/** Uploads `uploads` (half-hour slots from `firstDayMs`) for two new members of a new team named `name`. */
export async function teamOfTwoWithHistory(
  t: TestApp,
  uploads: readonly HistoryUpload[],
  firstDayMs: number,
  name: string,
): Promise<{ members: [TestUser, TestUser]; teamId: string }> {
  const members: [TestUser, TestUser] = [await signUp(t), await signUp(t)];
  const devices = await Promise.all(members.map((m) => issueDevice(t, m)));
  const [owner, other] = members;
  const post = (user: TestUser, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(user.accessToken), payload });
  let teamId: string | undefined;
  let joined = false;
  const create = async () =>
    (teamId ??= (await post(owner, '/functions/svc-team-create', { name })).json<{ id: string }>().id);
  const join = async () => {
    const link = (await post(owner, '/functions/svc-team-invite-create', { team_id: await create() })).json<{
      invite_token: string;
    }>();
    const res = await post(other, '/functions/svc-team-join', { invite_token: link.invite_token });
    expect(res.statusCode, res.body).toBe(200);
    joined = true;
  };
  for (const [i, u] of uploads.entries()) {
    if (i === Math.floor(uploads.length / 3)) await create();
    if (i === Math.floor((2 * uploads.length) / 3) && !joined) await join();
    const res = await ingest(t, (devices[u.who] as { token: string }).token, bucketsFrom(firstDayMs, u.buckets));
    expect(res.statusCode, res.body).toBe(200);
  }
  if (!joined) await join();
  await expectTeamModelInStep(t.db.kysely, `of team ${name}`);
  return { members, teamId: await create() };
}

/** A new team named `name` of `owner` (its creator) and `others` (joined by invites); answers its id. */
export async function formTeam(
  t: TestApp,
  owner: TestUser,
  others: readonly TestUser[],
  name: string,
): Promise<string> {
  const post = (user: TestUser, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(user.accessToken), payload });
  const teamId = (await post(owner, '/functions/svc-team-create', { name })).json<{ id: string }>().id;
  for (const other of others) {
    const link = (await post(owner, '/functions/svc-team-invite-create', { team_id: teamId })).json<{
      invite_token: string;
    }>();
    const res = await post(other, '/functions/svc-team-join', { invite_token: link.invite_token });
    expect(res.statusCode, res.body).toBe(200);
  }
  return teamId;
}
