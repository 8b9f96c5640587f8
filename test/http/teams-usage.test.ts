/**
 * A team's usage (docs/teams.md): exact sums past 2^53, costs that are the members' own costs
 * (member, model and source rows add up to the total), DST-true local days that match the members'
 * own daily views, project rows, and the team leaderboard over the members only. One app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  ingest,
  issueDevice,
  signUp,
  TRILLION_DAY_BOUND,
  trillionBuckets,
  type TestUser,
} from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

interface Totals {
  total_tokens: string;
  billable_total_tokens: string;
  total_cost_usd: string;
}
interface Usage {
  totals: Totals;
  tz: string;
  rows: { key: string; label?: string; totals: Totals }[];
}

const micros = (usd: string): bigint => BigInt(usd.replace('.', ''));
const RANGE = 'from=2026-09-30&to=2026-11-02&tz=America/New_York';

describe(`team usage (${engine})`, () => {
  let t: TestApp;
  let big: TestUser, small: TestUser, stranger: TestUser;
  let teamId: string;
  const get = async <T>(user: TestUser, url: string): Promise<T> => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(user.accessToken) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const usage = (group: string, extra = '') =>
    get<Usage>(big, `/functions/svc-team-usage?team_id=${teamId}&${RANGE}&group_by=${group}${extra}`);

  beforeAll(async () => {
    t = await createTestApp({ env: TRILLION_DAY_BOUND });
    [big, small, stranger] = await Promise.all([signUp(t), signUp(t), signUp(t)]);
    // Five devices of 500 half-hours of 10^12 tokens in each count: billable sums of 10^16, past 2^53.
    for (let i = 0; i < 5; i++) {
      const dev = await issueDevice(t, big, `rig-${i}`);
      const put = await ingest(t, dev.token, trillionBuckets());
      expect(put.statusCode, put.body).toBe(200);
    }
    const other = await issueDevice(t, small);
    // New York leaves summer time on 2026-11-01: that local day has 25 hours (04:00Z to 05:00Z next day).
    const res = await ingest(t, other.token, [
      { hour_start: '2026-11-01T03:30:00Z', source: 'codex', model: 'gpt-5', input_tokens: 7, total_tokens: 7 },
      { hour_start: '2026-11-01T04:00:00Z', source: 'codex', model: 'gpt-5', input_tokens: 11, total_tokens: 11 },
      {
        hour_start: '2026-11-02T04:30:00Z',
        source: 'claude',
        model: 'claude-sonnet-4',
        output_tokens: 13,
        total_tokens: 13,
        project_key: 'git:example/app',
        project_ref: 'example/app',
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const third = await issueDevice(t, stranger);
    await ingest(t, third.token, [{ hour_start: '2026-10-20T10:00:00Z', input_tokens: 99, total_tokens: 99 }]);
    teamId = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/svc-team-create',
        headers: bearer(big.accessToken),
        payload: { name: 'Exact' },
      })
    ).json<{ id: string }>().id;
    const link = (
      await t.app.inject({
        method: 'POST',
        url: '/functions/svc-team-invite-create',
        headers: bearer(big.accessToken),
        payload: { team_id: teamId },
      })
    ).json<{ invite_token: string }>();
    const joined = await t.app.inject({
      method: 'POST',
      url: '/functions/svc-team-join',
      headers: bearer(small.accessToken),
      payload: { invite_token: link.invite_token },
    });
    expect(joined.statusCode, joined.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("sums exactly past 2^53, and costs the team as its members' own costs", async () => {
    const own = await Promise.all(
      [big, small].map((u) => get<{ totals: Totals }>(u, `/functions/svc-usage-summary?${RANGE}`)),
    );
    const byMember = await usage('member');
    expect(BigInt(byMember.totals.total_tokens)).toBe(own.reduce((s, o) => s + BigInt(o.totals.total_tokens), 0n));
    expect(BigInt(byMember.totals.billable_total_tokens)).toBe(10n ** 16n + 31n);
    expect(micros(byMember.totals.total_cost_usd)).toBe(own.reduce((s, o) => s + micros(o.totals.total_cost_usd), 0n));
    expect(byMember.rows.map((r) => [r.key, r.totals.total_tokens, r.totals.total_cost_usd])).toEqual([
      [big.id, own[0]?.totals.total_tokens, own[0]?.totals.total_cost_usd],
      [small.id, own[1]?.totals.total_tokens, own[1]?.totals.total_cost_usd],
    ]);
    for (const group of ['model', 'source']) {
      const split = await usage(group);
      expect(split.totals).toEqual(byMember.totals);
      expect(split.rows.reduce((s, r) => s + BigInt(r.totals.total_tokens), 0n)).toBe(
        BigInt(split.totals.total_tokens),
      );
      expect(split.rows.reduce((s, r) => s + micros(r.totals.total_cost_usd), 0n)).toBe(
        micros(split.totals.total_cost_usd),
      );
    }
    expect((await usage('source')).rows.map((r) => r.key)).toEqual(['claude', 'codex']);
    // One member's usage (owners and admins): the member's own figures.
    const one = await usage('model', `&user_id=${small.id}`);
    expect(one.totals).toEqual(own[1]?.totals);
  });

  it("answers DST-true local days that match the members' own daily views", async () => {
    const days = await usage('day');
    expect(days.tz).toBe('America/New_York');
    const daily = await Promise.all(
      [big, small].map((u) =>
        get<{ data: { day: string; total_tokens: string }[] }>(u, `/functions/svc-usage-daily?${RANGE}`),
      ),
    );
    const expected = daily[0]?.data.map((d, i) => [
      d.day,
      (BigInt(d.total_tokens) + BigInt(daily[1]?.data[i]?.total_tokens ?? 0)).toString(),
    ]);
    expect(days.rows.map((r) => [r.key, r.totals.total_tokens])).toEqual(expected);
    const row = (day: string) => days.rows.find((r) => r.key === day)?.totals.total_tokens;
    expect([row('2026-10-31'), row('2026-11-01'), row('2026-11-02')]).toEqual(['7', '24', '0']);
    expect(days.rows.reduce((s, r) => s + BigInt(r.totals.total_tokens), 0n)).toBe(BigInt(days.totals.total_tokens));
  });

  it('lists projects all-time and ranks only the members on the team leaderboard', async () => {
    const projects = await usage('project');
    expect(projects.rows).toEqual([
      { key: 'git:example/app', label: 'example/app', totals: expect.objectContaining({ total_tokens: '13' }) },
    ]);
    await t.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(t.secrets.serviceRoleKey),
    });
    const board = await get<{ entries: { user_id: string; rank: number | null; total_tokens: string }[] }>(
      small,
      `/functions/svc-team-leaderboard?team_id=${teamId}&period=total&metric=gpt`,
    );
    expect(board.entries.map((e) => [e.user_id, e.rank])).toEqual([
      [small.id, 1],
      [big.id, null],
    ]);
  });
});
