/**
 * @fileoverview A team of two members with a generated history, for the team usage property tests:
 * both sign up, each uploads the half-hours the history gives them through `svc-ingest`, and the
 * first creates a team that the second joins by invite.
 */
import { expect } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from './actors.js';
import type { TestApp } from './app.js';

const HALF_HOUR = 1_800_000;

/** One upload of a generated history: whose (0 or 1), and half-hours counted from the first day. */
export interface HistoryUpload {
  readonly who: number;
  readonly buckets: ReadonlyArray<{ slot: number; source: string; model: string; input: number; output: number }>;
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
  for (const u of uploads) {
    const buckets: BucketInput[] = u.buckets.map((b) => ({
      hour_start: new Date(firstDayMs + b.slot * HALF_HOUR).toISOString(),
      source: b.source,
      model: b.model,
      input_tokens: b.input,
      output_tokens: b.output,
      total_tokens: b.input + b.output,
    }));
    const res = await ingest(t, (devices[u.who] as { token: string }).token, buckets);
    expect(res.statusCode, res.body).toBe(200);
  }
  const [owner, other] = members;
  const post = (user: TestUser, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(user.accessToken), payload });
  const teamId = (await post(owner, '/functions/svc-team-create', { name })).json<{ id: string }>().id;
  const link = (await post(owner, '/functions/svc-team-invite-create', { team_id: teamId })).json<{
    invite_token: string;
  }>();
  const joined = await post(other, '/functions/svc-team-join', { invite_token: link.invite_token });
  expect(joined.statusCode, joined.body).toBe(200);
  return { members, teamId };
}
