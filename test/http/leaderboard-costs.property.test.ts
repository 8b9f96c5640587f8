/**
 * The leaderboard's costs are the stored costs (both engines): after random uploads across users,
 * devices, days, sources and models — counts that grow and shrink — every entry of every period
 * and metric (and `me`, and a team's leaderboard) carries, per family, exactly the sum of that
 * user's `usage_daily.cost_micros` in the period's window (summed here independently, family by
 * `modelFamily`), and its tokens the sum of billable tokens. The same holds after the stored costs
 * are repriced to other price data, with uploads made while the repricing ran (rows priced again in
 * its swap) and after it. The seed is fixed and printed in the test's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { epochDayOf } from '../../src/domain/calendar.js';
import { modelFamily } from '../../src/domain/model-family.js';
import { bundledPriceData } from '../../src/pricing/price-data.js';
import { formatMicros } from '../../src/pricing/index.js';
import { BUNDLED_PRICES_EFFECTIVE_FROM, createPriceService, priceDataReady } from '../../src/pricing/price-service.js';
import type { LeaderboardEntryWire } from '../../src/services/leaderboard.js';
import { bearer, ingest, issueDevice, signUp, type BucketInput, type TestUser } from '../helpers/actors.js';
import { dearerData } from '../helpers/price-data.js';
import { capturingLogger, createTestApp, engine, TEST_SECRETS, type TestApp } from '../helpers/app.js';

const SEED = 0x1eadc057;
const NOW = Date.UTC(2026, 10, 18, 12); // a Wednesday: week 16–22 November, month November
const FIRST_DAY = Date.UTC(2026, 8, 25); // uploads from late September on
const DAYS = 55;
const MODELS: [string, string][] = [
  ['codex', 'gpt-5'],
  ['codex', 'o3-mini'],
  ['claude', 'claude-opus-4-1'],
  ['claude', 'claude-sonnet-4-5'],
  ['gemini', 'gemini-2.5-pro'],
  ['opencode', 'mystery-model'],
];

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const own = createPriceService();
const useBundledPrices = () =>
  own.replaceData(bundledPriceData().providers, { effectiveFrom: BUNDLED_PRICES_EFFECTIVE_FROM });

beforeAll(async () => {
  await priceDataReady();
});
afterAll(async () => {
  await useBundledPrices();
});

interface Actor {
  user: TestUser;
  tokens: string[];
}

type Family = 'gpt' | 'claude' | 'other';
interface Sums {
  tokens: Record<Family, bigint>;
  cost: Record<Family, bigint>;
}

describe(`leaderboard costs are the stored costs (${engine}, seed ${SEED})`, () => {
  it('after random uploads, and after a repricing with uploads during it', async () => {
    const next = random(SEED);
    const int = (n: number) => Math.floor(next() * n);
    const t: TestApp = await createTestApp({ clock: new ManualClock(NOW) });
    const closers: (() => Promise<void>)[] = [t.close];
    try {
      const actors: Actor[] = [];
      for (let i = 0; i < 5; i++) {
        const user = await signUp(t);
        const res = await t.app.inject({
          method: 'POST',
          url: '/functions/svc-public-visibility',
          headers: bearer(user.accessToken),
          payload: { enabled: true },
        });
        expect(res.statusCode).toBe(200);
        const tokens = [(await issueDevice(t, user)).token];
        if (i % 2 === 0) tokens.push((await issueDevice(t, user)).token);
        actors.push({ user, tokens });
      }
      const teamRes = await t.app.inject({
        method: 'POST',
        url: '/functions/svc-team-create',
        headers: bearer((actors[0] as Actor).user.accessToken),
        payload: { name: 'Costs' },
      });
      expect(teamRes.statusCode, teamRes.body).toBe(200);
      const teamId = teamRes.json<{ id: string }>().id;

      /** A random upload: a few buckets, often on (half-hour, source, model)s uploaded before, so counts go up and down. */
      const upload = async (app: TestApp) => {
        const actor = actors[int(actors.length)] as Actor;
        const token = actor.tokens[int(actor.tokens.length)] as string;
        const buckets: BucketInput[] = Array.from({ length: 1 + int(6) }, () => {
          const [source, model] = MODELS[int(MODELS.length)] as [string, string];
          const hour = FIRST_DAY + int(DAYS) * 86_400_000 + int(4) * 1_800_000;
          const input = int(400_000);
          const cached = int(input + 1);
          const output = int(30_000);
          const reasoning = int(output + 1);
          const total = source === 'codex' ? input + output : input + cached + output + reasoning;
          return {
            hour_start: new Date(hour).toISOString(),
            source,
            model,
            input_tokens: input,
            cached_input_tokens: cached,
            output_tokens: output,
            reasoning_output_tokens: reasoning,
            total_tokens: total,
          };
        });
        const unique = [...new Map(buckets.map((b) => [`${b.hour_start}|${b.source}|${b.model}`, b])).values()];
        const res = await ingest(app, token, unique);
        expect(res.statusCode, res.body).toBe(200);
      };

      /** Each user's stored costs and billable tokens per family in a window of UTC days, from `usage_daily`. */
      const expected = async (fromDay: string, toDay: string): Promise<Map<string, Sums>> => {
        const rows = await t.db.kysely
          .selectFrom('usage_daily')
          .select(['user_id', 'model', 'billable', 'cost_micros'])
          .where('day', '>=', BigInt(epochDayOf(fromDay)))
          .where('day', '<=', BigInt(epochDayOf(toDay)))
          .execute();
        const out = new Map<string, Sums>();
        for (const r of rows) {
          let s = out.get(r.user_id);
          if (s === undefined)
            out.set(
              r.user_id,
              (s = { tokens: { gpt: 0n, claude: 0n, other: 0n }, cost: { gpt: 0n, claude: 0n, other: 0n } }),
            );
          const f = modelFamily(r.model);
          s.tokens[f] += BigInt(r.billable);
          s.cost[f] += BigInt(r.cost_micros);
        }
        return out;
      };

      const checkEntry = (e: LeaderboardEntryWire, s: Sums | undefined, where: string) => {
        const zero = { gpt: 0n, claude: 0n, other: 0n };
        const cost = s?.cost ?? zero;
        const tokens = s?.tokens ?? zero;
        expect(
          {
            total_tokens: e.total_tokens,
            gpt_tokens: e.gpt_tokens,
            claude_tokens: e.claude_tokens,
            other_tokens: e.other_tokens,
            total_cost_usd: e.total_cost_usd,
            gpt_cost_usd: e.gpt_cost_usd,
            claude_cost_usd: e.claude_cost_usd,
            other_cost_usd: e.other_cost_usd,
          },
          where,
        ).toEqual({
          total_tokens: (tokens.gpt + tokens.claude + tokens.other).toString(),
          gpt_tokens: tokens.gpt.toString(),
          claude_tokens: tokens.claude.toString(),
          other_tokens: tokens.other.toString(),
          total_cost_usd: formatMicros(cost.gpt + cost.claude + cost.other),
          gpt_cost_usd: formatMicros(cost.gpt),
          claude_cost_usd: formatMicros(cost.claude),
          other_cost_usd: formatMicros(cost.other),
        });
      };

      /** Refreshes the snapshots through `app`, then checks every entry, `me` and the team's board against `usage_daily`. */
      const checkAll = async (app: TestApp, label: string) => {
        const refreshed = await app.app.inject({
          method: 'POST',
          url: '/functions/svc-leaderboard-refresh',
          headers: bearer(TEST_SECRETS.SERVICE_ROLE_KEY),
        });
        expect(refreshed.statusCode).toBe(200);
        let checked = 0;
        for (const period of ['week', 'month', 'total']) {
          for (const metric of ['all', 'gpt', 'claude', 'other']) {
            const me = actors[int(actors.length)] as Actor;
            const res = await app.app.inject({
              method: 'GET',
              url: `/functions/svc-leaderboard?period=${period}&metric=${metric}&limit=100`,
              headers: bearer(me.user.accessToken),
            });
            expect(res.statusCode).toBe(200);
            const board = res.json<{
              from: string;
              to: string;
              entries: LeaderboardEntryWire[];
              me: LeaderboardEntryWire;
            }>();
            const sums = await expected(board.from, board.to);
            const ranked = [...sums.values()].filter((s) =>
              metric === 'all' ? s.tokens.gpt + s.tokens.claude + s.tokens.other > 0n : s.tokens[metric as Family] > 0n,
            ).length;
            expect(board.entries, `${label} ${period} ${metric}`).toHaveLength(ranked);
            for (const e of board.entries) {
              checkEntry(e, sums.get(e.user_id as string), `${label} ${period} ${metric} ${e.user_id}`);
              checked += 1;
            }
            checkEntry(board.me, sums.get(me.user.id), `${label} ${period} ${metric} me`);
            const team = await app.app.inject({
              method: 'GET',
              url: `/functions/svc-team-leaderboard?team_id=${teamId}&period=${period}&metric=${metric}`,
              headers: bearer((actors[0] as Actor).user.accessToken),
            });
            expect(team.statusCode, team.body).toBe(200);
            const owner = team.json<{ entries: LeaderboardEntryWire[] }>().entries[0] as LeaderboardEntryWire;
            checkEntry(owner, sums.get((actors[0] as Actor).user.id), `${label} ${period} ${metric} team`);
          }
        }
        return checked;
      };

      for (let i = 0; i < 60; i++) await upload(t);
      expect(await checkAll(t, 'uploaded')).toBeGreaterThan(20);

      // Other price data: a second server over the database reprices the stored costs, held before
      // its swap while more uploads change rows (priced again in the swap).
      await own.replaceData(await dearerData(), { effectiveFrom: '2026-11-01' });
      let release: () => void = () => undefined;
      let held: () => void = () => undefined;
      const reached = new Promise<void>((resolve) => (held = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      const built = await createApp({
        config: t.config,
        db: { ...t.db, close: async () => undefined },
        clock: t.clock,
        logger: capturingLogger([]),
        hooks: {
          repricing: {
            usersPerBatch: 2,
            beforeBatch: async (progress) => {
              if (progress.rowsDone > 0) {
                held();
                await gate;
              }
            },
          },
        },
      });
      const second: TestApp = { ...t, ...built };
      closers.unshift(built.close);
      await reached;
      for (let i = 0; i < 15; i++) await upload(i % 2 === 0 ? t : second);
      release();
      await second.repricing.idle();
      const repriced = await t.db.kysely
        .selectFrom('read_model_state')
        .select('value')
        .where('name', '=', 'usage_daily.cost_micros')
        .executeTakeFirstOrThrow();
      expect(repriced.value).toBe(own.fingerprint);
      expect(await checkAll(second, 'repriced')).toBeGreaterThan(20);

      for (let i = 0; i < 20; i++) await upload(second);
      await checkAll(t, 'after');
    } finally {
      for (const close of closers) await close();
      await useBundledPrices();
    }
  });
});
