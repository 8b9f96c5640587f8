/**
 * getProjectUsageSummary with `cost=1` (docs/analytics.md, "Project cost"): each project's all-time
 * cost, exact. The reference for a project's cost is the summary of an account whose one device
 * uploaded only that project's buckets.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from '../helpers/actors.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

const at = (day: number, hour: number) => new Date(Date.UTC(2026, 9, day, hour)).toISOString();
const bucket = (day: number, hour: number, source: string, model: string, input: number, project?: string) => ({
  hour_start: at(day, hour),
  source,
  model,
  input_tokens: input,
  cached_input_tokens: Math.floor(input / 3),
  output_tokens: Math.floor(input / 10),
  total_tokens: input + Math.floor(input / 10),
  ...(project ? { project_key: project } : {}),
});

/** Two devices' buckets: project `web` over two models and three days, `cli` on one, some without a project. */
const LAPTOP: BucketInput[] = [
  bucket(20, 9, 'claude', 'claude-sonnet-4-5-20250929', 123_457, 'web'),
  bucket(20, 9, 'claude', 'claude-sonnet-4-5-20250929', 50_001, 'cli'),
  bucket(21, 15, 'codex', 'gpt-5', 777_777, 'web'),
  bucket(22, 3, 'codex', 'gpt-5', 9_999),
];
const DESKTOP: BucketInput[] = [
  bucket(20, 9, 'claude', 'claude-sonnet-4-5-20250929', 3_333, 'web'),
  bucket(23, 11, 'claude', 'claude-opus-4-1', 41_000, 'web'),
];

describe(`project cost (${engine})`, () => {
  let t: TestApp;
  let user: TestUser;

  beforeEach(async () => {
    t = await createTestApp();
    user = await signUp(t);
    expect((await ingest(t, (await issueDevice(t, user, 'laptop')).token, LAPTOP)).statusCode).toBe(200);
    expect((await ingest(t, (await issueDevice(t, user, 'desktop')).token, DESKTOP)).statusCode).toBe(200);
  });
  afterEach(async () => t.close());

  const get = async <T>(who: TestUser, path: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/functions/${path}`, headers: bearer(who.accessToken) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  type Entries = { entries: Array<{ project_key: string; total_tokens: string; total_cost_usd?: string }> };

  /** What an account costs, all of October, whose two devices uploaded only the buckets `keep` keeps (without their project). */
  const costAlone = async (keep: (b: BucketInput) => boolean, source = '') => {
    const alone = await signUp(t);
    for (const buckets of [LAPTOP, DESKTOP]) {
      const device = await issueDevice(t, alone, 'device');
      const stripped = buckets.filter(keep).map(({ project_key: _project, ...rest }) => rest);
      if (stripped.length > 0) expect((await ingest(t, device.token, stripped)).statusCode).toBe(200);
    }
    const body = await get<{ totals: { total_cost_usd: string } }>(
      alone,
      `svc-usage-summary?from=2026-10-01&to=2026-10-31&tz=UTC${source}`,
    );
    return body.totals.total_cost_usd;
  };

  it("answers each project's all-time cost with cost=1, exactly what its usage alone would cost", async () => {
    const plain = await get<Entries>(user, 'svc-project-usage-summary?limit=10');
    expect(plain.entries.map((e) => e.total_cost_usd)).toEqual([undefined, undefined]);
    const { entries } = await get<Entries>(user, 'svc-project-usage-summary?limit=10&cost=1');
    expect(entries.map((e) => e.project_key)).toEqual(['web', 'cli']);
    expect(entries[0]?.total_cost_usd).toBe(await costAlone((b) => b.project_key === 'web'));
    expect(entries[1]?.total_cost_usd).toBe(await costAlone((b) => b.project_key === 'cli'));
    expect(Number(entries[0]?.total_cost_usd)).toBeGreaterThan(0);
  });

  it('prices one source with source=, and refuses a cost other than 1', async () => {
    const { entries } = await get<Entries>(user, 'svc-project-usage-summary?limit=10&cost=1&source=claude');
    expect(entries.find((e) => e.project_key === 'web')?.total_cost_usd).toBe(
      await costAlone((b) => b.project_key === 'web' && b.source === 'claude'),
    );
    const refused = await t.app.inject({
      method: 'GET',
      url: '/functions/svc-project-usage-summary?cost=yes',
      headers: bearer(user.accessToken),
    });
    expect(refused.statusCode).toBe(400);
  });
});
