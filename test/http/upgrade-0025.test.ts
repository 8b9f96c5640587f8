/**
 * Upgrading a database made before migration 0025 (both engines): `usage_blocks` is built from the
 * `usage_daily` rows already stored — per (user, day / 16, source, model), counts and stored costs,
 * days before 1970 left out — and from then on follows every insert, update and delete of
 * `usage_daily`, whoever makes it.
 */
import { describe, expect, it } from 'vitest';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { engine, openTestDb } from '../helpers/app.js';

const BEFORE = '2026_11_28_0024_public_profiles';
const COUNTS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable', 'cost_micros'] as const;

const row = (user_id: string, day: number, model: string, n: number) => ({
  user_id,
  day,
  source: 'codex',
  model,
  input: n,
  cached_input: 2 * n,
  output: 3 * n,
  reasoning: 0,
  total: 4 * n,
  billable: 4 * n,
  cost_micros: 10 * n,
});

describe(`upgrade across migration 0025 (${engine})`, () => {
  it('builds usage_blocks from usage_daily, then keeps it in step with it', async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateUpTo(db, BEFORE);
      // Days 20,479 and 20,480 lie in different blocks (20,480 = 16 × 1,280); day -3 has none.
      await db.kysely
        .insertInto('usage_daily')
        .values([
          row('u1', 20_479, 'gpt-5', 1),
          row('u1', 20_480, 'gpt-5', 2),
          row('u1', 20_495, 'gpt-5', 4),
          row('u1', 20_480, 'o3', 8),
          row('u2', 20_480, 'gpt-5', 16),
          row('u1', -3, 'gpt-5', 32),
        ])
        .execute();
      await migrateToLatest(db);
      const blocks = async () =>
        new Map(
          (await db.kysely.selectFrom('usage_blocks').selectAll().orderBy(['user_id', 'block', 'model']).execute()).map(
            (r) => [`${r.user_id}|${Number(r.block)}|${r.model}`, COUNTS.map((c) => Number(r[c]))],
          ),
        );
      const sums = (n: number) => [n, 2 * n, 3 * n, 0, 4 * n, 4 * n, 10 * n];
      expect(await blocks()).toEqual(
        new Map([
          ['u1|1279|gpt-5', sums(1)],
          ['u1|1280|gpt-5', sums(6)],
          ['u1|1280|o3', sums(8)],
          ['u2|1280|gpt-5', sums(16)],
        ]),
      );

      // An upsert that updates, one that inserts, a repricing-like update, a delete.
      await db.kysely
        .insertInto('usage_daily')
        .values([row('u1', 20_480, 'gpt-5', 64), row('u1', 20_481, 'o3', 128)])
        .onConflict((oc) =>
          oc.columns(['user_id', 'source', 'model', 'day']).doUpdateSet((eb) => ({
            input: eb.ref('excluded.input'),
            cached_input: eb.ref('excluded.cached_input'),
            output: eb.ref('excluded.output'),
            total: eb.ref('excluded.total'),
            billable: eb.ref('excluded.billable'),
            cost_micros: eb.ref('excluded.cost_micros'),
          })),
        )
        .execute();
      await db.kysely.updateTable('usage_daily').set({ cost_micros: 0 }).where('user_id', '=', 'u2').execute();
      await db.kysely.deleteFrom('usage_daily').where('day', '=', BigInt(20_479)).execute();
      expect(await blocks()).toEqual(
        new Map([
          ['u1|1279|gpt-5', [0, 0, 0, 0, 0, 0, 0]],
          ['u1|1280|gpt-5', sums(68)],
          ['u1|1280|o3', sums(136)],
          ['u2|1280|gpt-5', [...sums(16).slice(0, 6), 0]],
        ]),
      );
    } finally {
      await drop();
    }
  });
});
