/**
 * Budgets: set, list with spend, delete; alerts raised once per (budget, period, threshold) even
 * when concurrent uploads and several checks cross them at once, each queuing one
 * budget.threshold_crossed message; team scope answers 404 to a non-member; a team budget counts its
 * members' usage only, is seen by members and its alerts by owners and admins; a burst of uploads
 * shares one check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';

describe(`budgets and alerts (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    user = await signUp(t);
  });
  afterAll(async () => t.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, who = user) =>
    t.app.inject({ method, url, headers: bearer(who.accessToken), ...(payload ? { payload } : {}) });

  /** A bucket of `tokens` billable tokens (claude: input counts) in the half-hour `slot` after now's UTC midnight. */
  const bucket = (slot: number, tokens: number) => ({
    hour_start: new Date(Math.floor(t.clock.now() / 86_400_000) * 86_400_000 + slot * 1_800_000).toISOString(),
    source: 'claude',
    model: 'claude-sonnet-4',
    input_tokens: tokens,
    total_tokens: tokens,
  });

  it('validates budgets and refuses team scope to a non-member (404)', async () => {
    const both = await call('POST', '/functions/svc-budget-set', {
      scope: 'user',
      period: 'month',
      limit_usd: '10',
      limit_tokens: '10',
    });
    expect(both.statusCode).toBe(400);
    const bad = await call('POST', '/functions/svc-budget-set', { scope: 'user', period: 'week', limit_usd: '1e3' });
    expect(bad.statusCode).toBe(400);
    const team = await call('POST', '/functions/svc-budget-set', {
      scope: 'team',
      team_id: 'some-team',
      period: 'month',
      limit_usd: '10',
    });
    expect(team.statusCode).toBe(404);
  });

  it('raises each threshold once however many uploads and checks cross it at once', async () => {
    const hook = await call('POST', '/functions/svc-webhook-create', {
      url: 'http://127.0.0.1:9/hook',
      events: ['budget.threshold_crossed'],
      scope: 'user',
    });
    expect(hook.statusCode).toBe(200);
    const set = await call('POST', '/functions/svc-budget-set', {
      scope: 'user',
      period: 'week',
      limit_tokens: '1000',
      tz: 'Europe/Berlin',
      week_starts_on: 'mon',
    });
    expect(set.statusCode, set.body).toBe(200);
    const budget = set.json<{ id: string; thresholds: number[]; state: string }>();
    expect(budget).toMatchObject({ thresholds: [50, 80, 100], state: 'ok' });

    // Five devices upload at once: 850 tokens together (85 %), each upload alone below 50 %.
    const devices = await Promise.all([0, 1, 2, 3, 4].map((i) => issueDevice(t, user, `d${i}`)));
    const ups = await Promise.all(devices.map((d, i) => ingest(t, d.token, [bucket(i, 170)])));
    for (const up of ups) expect(up.statusCode).toBe(200);
    // Several checks at once too (other processes or instances): the unique key keeps one alert.
    await Promise.all([1, 2, 3].map(() => t.notifications.alerts.check(user.id)));
    await t.notifications.alerts.idle();

    const alerts = async () =>
      (await call('GET', '/functions/svc-budget-alerts')).json<{
        alerts: { id: string; threshold_percent: number; unit: string }[];
      }>().alerts;
    expect((await alerts()).map((a) => a.threshold_percent).sort()).toEqual([50, 80]);
    const listed = (await call('GET', '/functions/svc-budgets')).json<{
      budgets: { id: string; spend_tokens: string; share: number; state: string }[];
    }>();
    expect(listed.budgets).toEqual([
      expect.objectContaining({ id: budget.id, spend_tokens: '850', share: 85, state: 'warning' }),
    ]);

    // Past 100 %: one more alert.
    const more = await ingest(t, devices[0]?.token ?? '', [bucket(10, 200)]);
    expect(more.statusCode).toBe(200);
    await t.notifications.alerts.idle();
    expect((await alerts()).map((a) => a.threshold_percent).sort()).toEqual([100, 50, 80]);
    const messages = await t.db.kysely
      .selectFrom('webhook_messages')
      .select('body')
      .where('event_type', '=', 'budget.threshold_crossed')
      .execute();
    const crossed = messages.map(
      (m) => JSON.parse(m.body) as { data: { threshold_percent: number; budget_id: string } },
    );
    expect(crossed.map((c) => c.data.threshold_percent).sort()).toEqual([100, 50, 80]);
    expect(crossed.every((c) => c.data.budget_id === budget.id)).toBe(true);

    // Dismissed alerts leave the banner; another user may not dismiss them or delete the budget.
    const stranger = await signUp(t);
    const first = (await alerts())[0];
    expect((await call('POST', '/functions/svc-budget-alert-dismiss', { id: first?.id }, stranger)).statusCode).toBe(
      404,
    );
    expect((await call('POST', '/functions/svc-budget-alert-dismiss', { id: first?.id })).statusCode).toBe(200);
    expect(await alerts()).toHaveLength(2);
    expect((await call('POST', '/functions/svc-budget-delete', { id: budget.id }, stranger)).statusCode).toBe(404);
    expect((await call('POST', '/functions/svc-budget-delete', { id: budget.id })).statusCode).toBe(200);
    expect((await call('GET', '/functions/svc-budgets')).json()).toEqual({ budgets: [] });
    expect(await alerts()).toHaveLength(0);
  });

  it("shares one check among a burst of a user's uploads, run when the alerts are flushed", async () => {
    const alerts = t.notifications.alerts;
    const checked: string[] = [];
    const check = alerts.check.bind(alerts);
    alerts.check = async (userId) => (checked.push(userId), check(userId));
    try {
      const other = await signUp(t);
      const device = await issueDevice(t, user, 'burst');
      const theirs = await issueDevice(t, other, 'burst');
      for (let i = 0; i < 5; i += 1) {
        expect((await ingest(t, device.token, [bucket(20 + i, 1)])).statusCode).toBe(200);
        expect((await ingest(t, theirs.token, [bucket(20 + i, 1)])).statusCode).toBe(200);
      }
      // The checks wait (CHECK_DELAY_MS) for the rest of the burst: none has run yet.
      expect(checked).toEqual([]);
      await alerts.idle();
      expect(checked.sort()).toEqual([user.id, other.id].sort());
    } finally {
      alerts.check = check;
    }
  });

  it('measures a USD budget in micro-dollars and a month in the budget zone', async () => {
    const set = await call('POST', '/functions/svc-budget-set', {
      scope: 'user',
      period: 'month',
      limit_usd: '0.000001',
      thresholds: [100, 50, 100],
    });
    expect(set.statusCode, set.body).toBe(200);
    const b = set.json<{ thresholds: number[]; state: string; period_start: string; spend_usd: string }>();
    expect(b.thresholds).toEqual([50, 100]);
    expect(b.period_start).toBe('2026-11-01T00:00:00.000Z');
    expect(b.state).toBe('exceeded');
    expect(Number(b.spend_usd)).toBeGreaterThan(0);
  });

  it("counts a team budget over its members' uploads only; members see it, owners and admins its alerts", async () => {
    const owner = await signUp(t);
    const member = await signUp(t);
    const outsider = await signUp(t);
    const team = (await call('POST', '/functions/svc-team-create', { name: 'Budgeted' }, owner)).json<{ id: string }>();
    const invite = await call('POST', '/functions/svc-team-invite-create', { team_id: team.id }, owner);
    const token = invite.json<{ invite_token: string }>().invite_token;
    expect((await call('POST', '/functions/svc-team-join', { invite_token: token }, member)).statusCode).toBe(200);
    // A member may not set the team's budget; the owner may.
    const body = { scope: 'team', team_id: team.id, period: 'month', limit_tokens: '1000', thresholds: [50] };
    expect((await call('POST', '/functions/svc-budget-set', body, member)).statusCode).toBe(404);
    expect((await call('POST', '/functions/svc-budget-set', body, owner)).statusCode).toBe(200);

    // An outsider's 900 tokens count for nothing; the member's 600 cross 50 %.
    const theirs = await issueDevice(t, outsider, 'outside');
    expect((await ingest(t, theirs.token, [bucket(1, 900)])).statusCode).toBe(200);
    await t.notifications.alerts.idle();
    const teamBudget = async (who: TestUser) =>
      (await call('GET', '/functions/svc-budgets', undefined, who))
        .json<{ budgets: { scope: string; state: string; spend_tokens: string }[] }>()
        .budgets.filter((b) => b.scope === 'team');
    expect((await teamBudget(owner))[0]?.spend_tokens).toBe('0');
    const mine = await issueDevice(t, member, 'member');
    expect((await ingest(t, mine.token, [bucket(2, 600)])).statusCode).toBe(200);
    await t.notifications.alerts.idle();
    expect((await teamBudget(member))[0]).toMatchObject({ spend_tokens: '600' });
    expect(await teamBudget(outsider)).toEqual([]);
    const alertsOf = async (who: TestUser) =>
      (await call('GET', '/functions/svc-budget-alerts', undefined, who)).json<{ alerts: unknown[] }>().alerts;
    expect(await alertsOf(owner)).toHaveLength(1);
    expect(await alertsOf(member)).toHaveLength(0);
  });
});
