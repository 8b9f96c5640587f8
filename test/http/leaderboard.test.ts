import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';
import type { LeaderboardEntryWire } from '../../src/services/leaderboard.js';

type Entry = LeaderboardEntryWire;
interface Board {
  period: string;
  metric: string;
  from: string;
  to: string;
  total_entries: number;
  total_pages: number;
  page: number;
  entries: Entry[];
  me: Entry | null;
}

/** Buckets of total tokens only cost nothing (test/http/leaderboard-costs.property.test.ts checks costs). */
const NO_COST = {
  total_cost_usd: '0.000000',
  gpt_cost_usd: '0.000000',
  claude_cost_usd: '0.000000',
  other_cost_usd: '0.000000',
};

const b = (hour_start: string, model: string, total_tokens: number): BucketInput => ({
  hour_start,
  source: 'test',
  model,
  total_tokens,
});

describe(`leaderboard (${engine})`, () => {
  let t: TestApp;
  let ada: TestUser; // public, gpt 300 this week and month
  let bob: TestUser; // private, claude 300 this week and month
  let cy: TestUser; // private, gpt 100 + claude 200 on Saturday 2026-10-31 (this ISO week, last month)
  let dee: TestUser; // private, gemini 50 in early October
  let eve: TestUser; // no usage

  async function usage(user: TestUser, buckets: BucketInput[]) {
    const device = await issueDevice(t, user);
    const res = await ingest(t, device.token, buckets);
    expect(res.statusCode, res.body).toBe(200);
  }
  const setVisible = (u: TestUser, enabled: boolean) =>
    t.app.inject({
      method: 'POST',
      url: '/functions/svc-public-visibility',
      headers: bearer(u.accessToken),
      payload: { enabled },
    });
  const refresh = (query = '', token = TEST_SECRETS.SERVICE_ROLE_KEY) =>
    t.app.inject({ method: 'POST', url: `/functions/svc-leaderboard-refresh${query}`, headers: bearer(token) });
  async function board(query: string, token?: string): Promise<Board> {
    const res = await t.app.inject({
      method: 'GET',
      url: `/functions/svc-leaderboard?${query}`,
      headers: token ? bearer(token) : {},
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Board>();
  }
  const profile = (query: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/functions/svc-leaderboard-profile?${query}`,
      headers: token ? bearer(token) : {},
    });

  beforeEach(async () => {
    t = await createTestApp();
    [ada, bob, cy, dee, eve] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(ada.accessToken),
      payload: { data: { display_name: 'Ada', avatar_url: 'https://example.com/ada.png' } },
    });
    await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(bob.accessToken),
      payload: { data: { display_name: 'Bob Secret' } },
    });
    await usage(ada, [b('2026-11-01T10:00:00Z', 'gpt-5', 200), b('2026-11-01T10:30:00Z', 'o3-mini', 100)]);
    await usage(bob, [b('2026-11-01T10:00:00Z', 'claude-sonnet-4-5', 300)]);
    await usage(cy, [
      b('2026-10-31T10:00:00Z', 'openai/gpt-4o', 100),
      b('2026-10-31T11:00:00Z', 'anthropic/claude-opus-4', 200),
    ]);
    await usage(dee, [b('2026-10-02T10:00:00Z', 'gemini-2.5-pro', 50)]);
    expect((await setVisible(ada, true)).statusCode).toBe(200);
    expect((await refresh()).statusCode).toBe(200);
  });
  afterEach(async () => t.close());

  it('ranks by billable tokens in UTC windows, dense ranks, ties ordered by an internal id', async () => {
    const week = await board('period=week');
    expect(week).toMatchObject({
      period: 'week',
      metric: 'all',
      from: '2026-10-26',
      to: '2026-11-01',
      total_entries: 3,
      total_pages: 1,
      page: 1,
      me: null,
    });
    expect(week.entries.map((e) => [e.rank, e.total_tokens])).toEqual([
      [1, '300'],
      [1, '300'],
      [1, '300'],
    ]);
    const month = await board('period=month');
    expect(month).toMatchObject({ from: '2026-11-01', to: '2026-11-30', total_entries: 2 });
    const total = await board('period=total');
    expect(total.entries.map((e) => [e.rank, e.total_tokens])).toEqual([
      [1, '300'],
      [1, '300'],
      [1, '300'],
      [2, '50'],
    ]);
    // The order inside a rank is stable across reads and metrics.
    expect((await board('period=total')).entries).toEqual(total.entries);
  });

  it('ranks each metric by model family, only users with usage in it', async () => {
    const gpt = await board('period=week&metric=gpt');
    expect(gpt.entries.map((e) => [e.rank, e.gpt_tokens, e.user_id])).toEqual([
      [1, '300', ada.id],
      [2, '100', null],
    ]);
    const claude = await board('period=week&metric=claude');
    expect(claude.entries.map((e) => [e.rank, e.claude_tokens])).toEqual([
      [1, '300'],
      [2, '200'],
    ]);
    expect((await board('period=week&metric=other')).entries).toEqual([]);
    const other = await board('period=total&metric=other');
    expect(other.entries).toEqual([
      {
        rank: 1,
        user_id: null,
        display_name: null,
        avatar_url: null,
        total_tokens: '50',
        gpt_tokens: '0',
        claude_tokens: '0',
        other_tokens: '50',
        ...NO_COST,
        is_public: false,
      },
    ]);
  });

  it("never shows a private user's id or name, and joins visibility at read time", async () => {
    const bodies: string[] = [];
    for (const period of ['week', 'month', 'total']) {
      for (const metric of ['all', 'gpt', 'claude', 'other']) {
        bodies.push(
          (await t.app.inject({ method: 'GET', url: `/functions/svc-leaderboard?period=${period}&metric=${metric}` }))
            .body,
        );
        bodies.push(
          (
            await t.app.inject({
              method: 'GET',
              url: `/functions/svc-leaderboard?period=${period}&metric=${metric}`,
              headers: bearer(eve.accessToken),
            })
          ).body,
        );
      }
    }
    for (const body of bodies) {
      for (const hidden of [bob, cy, dee]) {
        expect(body).not.toContain(hidden.id);
        expect(body).not.toContain(hidden.email);
      }
      expect(body).not.toContain('Bob Secret');
    }
    const week = await board('period=week&metric=gpt');
    expect(week.entries[0]).toEqual({
      rank: 1,
      user_id: ada.id,
      display_name: 'Ada',
      avatar_url: 'https://example.com/ada.png',
      total_tokens: '300',
      gpt_tokens: '300',
      claude_tokens: '0',
      other_tokens: '0',
      ...NO_COST,
      is_public: true,
    });
    await setVisible(ada, false); // no refresh: hidden at once
    expect((await board('period=week&metric=gpt')).entries[0]).toMatchObject({
      user_id: null,
      display_name: null,
      avatar_url: null,
      is_public: false,
    });
  });

  it('gives signed-in callers `me`, even outside the page, with rank null without usage', async () => {
    const page = await board('period=total&limit=1&offset=3', cy.accessToken);
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]?.total_tokens).toBe('50');
    expect(page.me).toEqual({
      rank: 1,
      user_id: null,
      display_name: null,
      avatar_url: null,
      total_tokens: '300',
      gpt_tokens: '100',
      claude_tokens: '200',
      other_tokens: '0',
      ...NO_COST,
      is_public: false,
    });
    expect((await board('period=month', cy.accessToken)).me).toMatchObject({ rank: null, total_tokens: '0' });
    expect((await board('period=week&metric=other', cy.accessToken)).me).toMatchObject({
      rank: null,
      total_tokens: '300',
    });
    expect((await board('period=week', eve.accessToken)).me).toEqual({
      rank: null,
      user_id: null,
      display_name: null,
      avatar_url: null,
      total_tokens: '0',
      gpt_tokens: '0',
      claude_tokens: '0',
      other_tokens: '0',
      ...NO_COST,
      is_public: false,
    });
    expect((await board('period=week&metric=gpt', ada.accessToken)).me).toMatchObject({
      rank: 1,
      user_id: ada.id,
      display_name: 'Ada',
    });
  });

  it('pages with limit and offset inside their bounds', async () => {
    const p1 = await board('period=total&limit=2');
    const p2 = await board('period=total&limit=2&offset=2');
    expect([p1.total_pages, p1.page, p2.page]).toEqual([2, 1, 2]);
    expect([...p1.entries, ...p2.entries]).toEqual((await board('period=total')).entries);
    expect((await board('period=total&offset=10000')).entries).toEqual([]);
    for (const bad of [
      'period=week&limit=0',
      'period=week&limit=101',
      'period=week&offset=-1',
      'period=week&offset=10001',
      'period=day',
      '',
      'period=week&metric=gemini',
      'period=week&limit=x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/functions/svc-leaderboard?${bad}` });
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('answers 401 to unrecognised bearers and 403 to non-user credentials', async () => {
    const device = await issueDevice(t, eve);
    const share = (await setVisible(eve, true)).json<{ share_token: string }>().share_token;
    for (const url of [
      '/functions/svc-leaderboard?period=week',
      `/functions/svc-leaderboard-profile?user_id=${ada.id}`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url, headers: bearer('junk') })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(device.token) })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(share) })).statusCode).toBe(403);
      expect(
        (await t.app.inject({ method: 'GET', url, headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY) })).statusCode,
      ).toBe(403);
    }
  });

  it("serves profiles: public users to anyone, one's own always, everyone else 403", async () => {
    const pub = await profile(`user_id=${ada.id}`);
    expect(pub.statusCode).toBe(200);
    expect(pub.json()).toMatchObject({
      period: 'week',
      from: '2026-10-26',
      entry: { rank: 1, user_id: ada.id, display_name: 'Ada', total_tokens: '300' },
    });
    expect((await profile(`user_id=${bob.id}`)).statusCode).toBe(403);
    expect((await profile(`user_id=${bob.id}`, eve.accessToken)).statusCode).toBe(403);
    const own = await profile(`user_id=${bob.id}&period=total`, bob.accessToken);
    expect(own.statusCode).toBe(200);
    expect(own.json().entry).toMatchObject({ rank: 1, claude_tokens: '300', is_public: false });
    expect((await profile('user_id=00000000-0000-4000-8000-000000000000')).statusCode).toBe(403);
    expect((await profile('user_id=nope')).statusCode).toBe(400);
    expect((await profile('')).statusCode).toBe(400);
    await setVisible(eve, true);
    const zero = await profile(`user_id=${eve.id}&period=month`);
    expect(zero.statusCode).toBe(200);
    expect(zero.json().entry).toMatchObject({ rank: null, user_id: eve.id, total_tokens: '0' });
    await setVisible(ada, false);
    expect((await profile(`user_id=${ada.id}`)).statusCode).toBe(403);
  });

  it('serves snapshots: new usage shows after a refresh; a new week refreshes on first read', async () => {
    await usage(eve, [b('2026-11-01T11:00:00Z', 'gpt-5', 1000)]);
    expect((await board('period=week')).total_entries).toBe(3);
    const res = await refresh('?period=week');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      generated_at: '2026-11-01T12:00:00.000Z',
      results: [{ period: 'week', from: '2026-10-26', to: '2026-11-01', rows: 4 }],
    });
    expect((await board('period=week')).entries[0]).toMatchObject({ rank: 1, total_tokens: '1000' });
    expect((await board('period=month')).total_entries).toBe(2); // month not refreshed yet

    t.clock.set(Date.UTC(2026, 10, 2, 0, 0, 1)); // Monday: a new ISO week
    const next = await board('period=week');
    expect(next).toMatchObject({ from: '2026-11-02', to: '2026-11-08', total_entries: 0, entries: [] });
  });

  it('refreshes only for the service role; all periods or the one named', async () => {
    const all = (await refresh()).json<{ results: { period: string; rows: number }[] }>();
    expect(all.results.map((r) => [r.period, r.rows])).toEqual([
      ['week', 3],
      ['month', 2],
      ['total', 4],
    ]);
    expect((await refresh('', ada.accessToken)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/functions/svc-leaderboard-refresh' })).statusCode).toBe(401);
    expect((await refresh('?period=year')).statusCode).toBe(400);
    // Old generations are cleaned up: at most two per period remain.
    for (let i = 0; i < 3; i++) await refresh();
    const generations = await t.db.kysely.selectFrom('leaderboard_generations').select('period').execute();
    expect(generations.length).toBe(6);
  });

  it('keeps the per-period family totals in step with the rollup through updates and deletes', async () => {
    const device = await issueDevice(t, eve);
    await ingest(t, device.token, [
      b('2026-11-01T09:00:00Z', 'gpt-5', 10),
      { ...b('2026-11-01T09:00:00Z', 'claude-opus-4', 5), project_key: 'a/b' },
    ]);
    await ingest(t, device.token, [
      b('2026-11-01T09:00:00Z', 'gpt-5', 25),
      b('2026-11-01T09:00:00Z', 'claude-opus-4', 7),
    ]); // update + variant replaced
    const rollup = await t.db.kysely.selectFrom('usage_rollup').select(['user_id', 'model', 'billable']).execute();
    const expected = new Map<string, [bigint, bigint, bigint]>();
    for (const r of rollup) {
      const family = /^(gpt-|o[1-4]|openai\/)/.test(r.model) ? 0 : /^(claude-|anthropic\/)/.test(r.model) ? 1 : 2;
      const sums = expected.get(r.user_id) ?? [0n, 0n, 0n];
      sums[family] += r.billable;
      expected.set(r.user_id, sums);
    }
    const totals = await t.db.kysely.selectFrom('leaderboard_user_totals').selectAll().execute();
    expect(
      new Map(
        totals.filter((r) => r.gpt + r.claude + r.other > 0n).map((r) => [r.user_id, [r.gpt, r.claude, r.other]]),
      ),
    ).toEqual(expected);
    const eveWeek = await t.db.kysely
      .selectFrom('leaderboard_user_weeks')
      .selectAll()
      .where('user_id', '=', eve.id)
      .execute();
    expect(eveWeek.map((r) => [r.gpt, r.claude, r.other])).toEqual([[25n, 7n, 0n]]);
  });
});
