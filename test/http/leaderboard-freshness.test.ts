/**
 * A user who just synced finds themselves on the leaderboard: an upload that changed usage brings
 * a refresh forward once the snapshot is a minute old (docs/leaderboard.md, "Freshness").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp } from '../helpers/actors.js';
import { createTestApp, engine, T0, TEST_SECRETS, type TestApp } from '../helpers/app.js';

describe(`leaderboard freshness after uploads (${engine})`, () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  const entries = async (app: TestApp) => {
    const res = await app.app.inject({ method: 'GET', url: '/functions/svc-leaderboard?period=total' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ total_entries: number; generated_at: string }>();
  };
  const bucket = (i: number) => ({
    hour_start: new Date(T0 - 3_600_000 - i * 1_800_000).toISOString(),
    source: 'codex',
    model: 'gpt-5.2-codex',
    input_tokens: 10,
    total_tokens: 10,
  });

  it('refreshes soon after the first upload when the snapshot is older than a minute, once for a burst', async () => {
    const app = (t = await createTestApp({ env: { LEADERBOARD_FRESH_SECONDS: '60' } }));
    const refresh = await app.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
    });
    expect(refresh.statusCode, refresh.body).toBe(200);
    expect((await entries(app)).total_entries).toBe(0);
    app.clock.advance(61_000);
    const device = await issueDevice(app, await signUp(app));
    // A burst of uploads: one refresh.
    for (let i = 0; i < 3; i++) expect((await ingest(app, device.token, [bucket(i)])).statusCode).toBe(200);
    await app.leaderboardFreshness?.idle();
    const after = await entries(app);
    expect(after.total_entries).toBe(1);
    expect(Date.parse(after.generated_at)).toBe(app.clock.now());
  });

  it('waits while the snapshot is younger than a minute, and does nothing for an upload that changed nothing', async () => {
    const app = (t = await createTestApp({ env: { LEADERBOARD_FRESH_SECONDS: '60' } }));
    await app.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
    });
    const device = await issueDevice(app, await signUp(app));
    app.clock.advance(61_000);
    expect((await ingest(app, device.token, [bucket(0)])).statusCode).toBe(200);
    await app.leaderboardFreshness?.idle();
    expect((await entries(app)).total_entries).toBe(1);
    // The same upload again changes nothing: no refresh is scheduled.
    expect((await ingest(app, device.token, [bucket(0)])).json()).toMatchObject({ inserted: 0 });
    // A new user's upload 10 s after the refresh: the snapshot is young, so it waits (timer pending).
    app.clock.advance(10_000);
    const other = await issueDevice(app, await signUp(app));
    expect((await ingest(app, other.token, [bucket(1)])).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect((await entries(app)).total_entries).toBe(1);
  });

  it('is off with LEADERBOARD_FRESH_SECONDS=0: only the periodic refresh moves the snapshot', async () => {
    const app = (t = await createTestApp());
    expect(app.leaderboardFreshness).toBeUndefined();
    await app.app.inject({
      method: 'POST',
      url: '/functions/svc-leaderboard-refresh',
      headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
    });
    app.clock.advance(61_000);
    const device = await issueDevice(app, await signUp(app));
    expect((await ingest(app, device.token, [bucket(0)])).statusCode).toBe(200);
    expect((await entries(app)).total_entries).toBe(0);
  });
});
