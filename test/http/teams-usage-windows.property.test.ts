/**
 * Property test through the HTTP interface (both engines): a team's usage, read over all its
 * members' windows at once (`usage_daily` by user and day, migration 0025), equals what the
 * members' own summaries answer, over random windows and zones and a history with re-uploads that
 * change counts: each member row's tokens and cost, the model and source rows summing to those
 * totals, and the day rows filtered to each model or source adding up to the unfiltered ones. The
 * seed is fixed and printed.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type TestUser } from '../helpers/actors.js';
import { teamOfTwoWithHistory } from '../helpers/team-history.js';
import { createTestApp, engine, type TestApp } from '../helpers/app.js';

const SEED = 20_261_129;
console.info(`teams-usage-windows.property: fast-check seed ${SEED}`);

const DAY = 86_400_000;
/** 80 UTC days ending the day before the test clock's "now" (2026-11-01T12:00Z). */
const FIRST_DAY = Date.UTC(2026, 7, 13) / DAY;
const SPAN_DAYS = 80;
const ZONES = ['UTC', 'America/New_York', 'Asia/Kathmandu', 'Pacific/Auckland'];

const bucket = fc.record({
  slot: fc.integer({ min: 0, max: SPAN_DAYS * 48 - 1 }),
  source: fc.constantFrom('codex', 'claude'),
  model: fc.constantFrom('gpt-5', 'claude-sonnet-4-5', 'my-local-llama'),
  input: fc.integer({ min: 0, max: 5_000_000 }),
  output: fc.integer({ min: 0, max: 500_000 }),
});
const history = fc.array(
  fc.record({ who: fc.integer({ min: 0, max: 1 }), buckets: fc.array(bucket, { minLength: 40, maxLength: 80 }) }),
  { minLength: 10, maxLength: 12 },
);
const window = fc.record({
  from: fc.integer({ min: -3, max: SPAN_DAYS }),
  days: fc.integer({ min: 1, max: SPAN_DAYS + 6 }),
  zone: fc.constantFrom(...ZONES),
});

const isoDay = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

interface Totals {
  total_tokens: string;
  total_cost_usd: string;
}
interface Usage {
  totals: Totals;
  rows: { key: string; totals: Totals }[];
}
const micros = (usd: string): bigint => BigInt(usd.replace('.', ''));

describe(`a team's usage over random windows (${engine})`, () => {
  let t: TestApp;
  let members: TestUser[];
  let teamId: string;
  const get = async <T>(user: TestUser, url: string): Promise<T> => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(user.accessToken) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };

  beforeAll(async () => {
    t = await createTestApp();
    const [uploads] = fc.sample(history, { seed: SEED, numRuns: 1 });
    ({ members, teamId } = await teamOfTwoWithHistory(t, uploads ?? [], FIRST_DAY * DAY, 'Blocks'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers each member's own summary, and model and source rows that add up to it, for random windows", async () => {
    await fc.assert(
      fc.asyncProperty(window, async (w) => {
        const range = `from=${isoDay(FIRST_DAY + w.from)}&to=${isoDay(FIRST_DAY + w.from + w.days - 1)}&tz=${encodeURIComponent(w.zone)}`;
        const owner = members[0] as TestUser;
        const own = await Promise.all(
          members.map((m) => get<{ totals: Totals }>(m, `/functions/svc-usage-summary?${range}`)),
        );
        const team = (group: string) =>
          get<Usage>(owner, `/functions/svc-team-usage?team_id=${teamId}&${range}&group_by=${group}`);
        const byMember = await team('member');
        for (const [i, m] of members.entries()) {
          const row = byMember.rows.find((r) => r.key === m.id);
          expect([row?.totals.total_tokens, row?.totals.total_cost_usd]).toEqual([
            own[i]?.totals.total_tokens,
            own[i]?.totals.total_cost_usd,
          ]);
        }
        expect(micros(byMember.totals.total_cost_usd)).toBe(
          own.reduce((s, o) => s + micros(o.totals.total_cost_usd), 0n),
        );
        for (const group of ['model', 'source'] as const) {
          const split = await team(group);
          expect(split.totals).toEqual(byMember.totals);
          expect(split.rows.reduce((s, r) => s + micros(r.totals.total_cost_usd), 0n)).toBe(
            micros(split.totals.total_cost_usd),
          );
          // Filtered to one model or source: the totals are that row's, and the day rows (the stacked
          // trend's layers) add up, day by day, to the unfiltered ones.
          const days = await team('day');
          const layers = await Promise.all(split.rows.map((r) => team(`day&${group}=${encodeURIComponent(r.key)}`)));
          for (const [i, layer] of layers.entries()) expect(layer.totals).toEqual(split.rows[i]?.totals);
          expect(
            days.rows.map((d, i) => layers.reduce((s, l) => s + BigInt(l.rows[i]?.totals.total_tokens ?? 0), 0n)),
          ).toEqual(days.rows.map((d) => BigInt(d.totals.total_tokens)));
        }
      }),
      { seed: SEED, numRuns: 30 },
    );
  });

  it('refuses a source or model filter on project rows, which are all-time and not split', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/functions/svc-team-usage?team_id=${teamId}&group_by=project&source=codex`,
      headers: bearer((members[0] as TestUser).accessToken),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ errors: { path: string }[] }>().errors[0]?.path).toBe('/querystring/source');
  });
});
