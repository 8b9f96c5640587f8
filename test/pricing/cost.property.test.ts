/**
 * Property tests for costing: the total does not depend on row order, on how a bucket's counts
 * are split into rows, or on costing each UTC day separately (truncation is per model and day).
 * The seed is fixed and printed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UsageRow } from '../../src/domain/usage-row.js';
import { createCostAccumulator } from '../../src/pricing/cost.js';
import { createPriceService } from '../../src/pricing/price-service.js';

const SEED = 777_2026;
console.info(`cost.property: fast-check seed ${SEED}`);

const prices = createPriceService();
const DAY = 86_400_000;
const BASE = Date.parse('2025-05-20T00:00:00Z'); // spans o3's 2025-06-10 price change

const rowArb: fc.Arbitrary<UsageRow> = fc
  .record({
    slot: fc.integer({ min: 0, max: 48 * 60 - 1 }),
    source: fc.constantFrom('codex', 'claude', 'opencode', 'every-code'),
    model: fc.constantFrom('gpt-5', 'gpt-5-codex', 'o3', 'claude-sonnet-4-5', 'mystery'),
    input: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    cached: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    output: fc.bigInt({ min: 0n, max: 10n ** 9n }),
    reasoning: fc.bigInt({ min: 0n, max: 10n ** 9n }),
  })
  .map(({ slot, input, cached, ...rest }) => ({
    hourStart: BASE + slot * 1_800_000,
    input: input + cached, // keep codex data consistent: cached ⊂ input
    cached,
    total: input + cached,
    billable: input + cached,
    ...rest,
    reasoning: rest.reasoning > rest.output ? rest.output : rest.reasoning,
  }));

const total = (rows: readonly UsageRow[]): bigint => {
  const acc = createCostAccumulator(prices);
  acc.addAll(rows);
  return acc.totalMicros();
};

describe('cost properties (seed printed above)', () => {
  it('is independent of order, of splitting rows, and of costing day by day', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 60 }), fc.integer(), (rows, salt) => {
        const whole = total(rows);
        // order
        const shuffled = [...rows].sort((a, b) => ((a.hourStart * 31 + salt) % 97) - ((b.hourStart * 31 + salt) % 97));
        expect(total(shuffled)).toBe(whole);
        // splitting every row in two
        const split = rows.flatMap((r) => {
          const half = (x: bigint): bigint => x / 2n;
          const a = {
            ...r,
            input: half(r.input),
            cached: half(r.cached),
            output: half(r.output),
            reasoning: half(r.reasoning),
          };
          const b = {
            ...r,
            input: r.input - a.input,
            cached: r.cached - a.cached,
            output: r.output - a.output,
            reasoning: r.reasoning - a.reasoning,
          };
          return [a, b];
        });
        expect(total(split)).toBe(whole);
        // per UTC day
        const byDay = new Map<number, UsageRow[]>();
        for (const r of rows) {
          const d = Math.floor(r.hourStart / DAY);
          byDay.set(d, [...(byDay.get(d) ?? []), r]);
        }
        let sum = 0n;
        for (const dayRows of byDay.values()) sum += total(dayRows);
        expect(sum).toBe(whole);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
