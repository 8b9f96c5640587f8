import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addToDay, dayTotalsOf, packDay, unpackDay, type SlotDelta } from '../../src/domain/day-slots.js';

const SEED = 20_261_124;
console.info(`day-slots: fast-check seed ${SEED}`);

const slot = (s: number, n: bigint, billable = n): SlotDelta => ({
  slot: s,
  input: n,
  cached: 0n,
  output: 0n,
  reasoning: 0n,
  total: n,
  billable,
});

describe('packed days', () => {
  it('writes the day sums, then each non-empty half-hour ascending', () => {
    expect(packDay([slot(21, 30n), slot(20, 120n, 100n)])).toBe(
      '150,0,0,0,150,130,20,120,0,0,0,120,100,21,30,0,0,0,30,30',
    );
    expect(packDay([])).toBe('0,0,0,0,0,0');
  });

  it('adds changes in place: untouched half-hours are copied, new ones inserted in order, emptied ones dropped', () => {
    const stored = packDay([slot(3, 5n), slot(10, 7n), slot(40, 1n)]);
    const next = addToDay(stored, [slot(10, -7n), slot(0, 2n), slot(41, 4n), slot(3, 1n)]);
    expect(unpackDay(next).slots.map((s) => [s.slot, s.total])).toEqual([
      [0, 2n],
      [3, 6n],
      [40, 1n],
      [41, 4n],
    ]);
    expect(dayTotalsOf(next).total).toBe(13n);
    expect(addToDay(packDay([slot(7, 9n)]), [slot(7, -9n)])).toBe('0,0,0,0,0,0');
  });

  it('keeps sums past 2^53 exact', () => {
    const big = 2n ** 60n;
    expect(dayTotalsOf(addToDay(packDay([slot(1, big)]), [slot(1, 1n)])).total).toBe(big + 1n);
  });

  it('refuses a slot outside the day and a malformed text', () => {
    expect(() => packDay([slot(48, 1n)])).toThrow(RangeError);
    expect(() => dayTotalsOf('1,2,3')).toThrow();
  });

  it('equals the sum of every change, however they are split over writes', () => {
    const change = fc.record({ slot: fc.integer({ min: 0, max: 47 }), n: fc.bigInt({ min: 0n, max: 10n ** 15n }) });
    fc.assert(
      fc.property(fc.array(fc.array(change, { maxLength: 6 }), { maxLength: 6 }), (writes) => {
        let text: string | undefined;
        const expected = new Map<number, bigint>();
        for (const w of writes) {
          text = addToDay(
            text,
            w.map((c) => slot(c.slot, c.n)),
          );
          for (const c of w) expected.set(c.slot, (expected.get(c.slot) ?? 0n) + c.n);
        }
        const day = unpackDay(text ?? packDay([]));
        const want = [...expected].filter(([, n]) => n !== 0n).sort(([a], [b]) => a - b);
        expect(day.slots.map((s) => [s.slot, s.total])).toEqual(want);
        expect(day.totals.total).toBe(want.reduce((a, [, n]) => a + n, 0n));
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});
