import fc from 'fast-check';
import type { Bucket } from '../../src/domain/bucket.js';
import { describe, expect, it } from 'vitest';
import { DAY_MS, HALF_HOUR_MS } from '../../src/domain/calendar.js';
import {
  compareBucketKeys,
  dayOfHalfHour,
  packDayBuckets,
  unpackDayBuckets,
} from '../../src/domain/device-day-buckets.js';

const SEED = 20_261_127;
console.info(`device-day-buckets: fast-check seed ${SEED}`);

const DAY = 20_000;

const bucket = (slot: number, source: string, model: string, projectKey = '', total = 1n): Bucket => ({
  hourStart: DAY * DAY_MS + slot * HALF_HOUR_MS,
  source,
  model,
  projectKey,
  projectRef: projectKey === '' ? null : `ref:${projectKey}`,
  input: total,
  cached: 0n,
  output: 0n,
  reasoning: 0n,
  total,
  billable: total,
});

describe("a device's packed day", () => {
  it('packs buckets in key order, counts as decimal text', () => {
    const text = packDayBuckets(DAY, [bucket(3, 'codex', 'b'), bucket(3, 'codex', 'a', 'p', 5n), bucket(0, 'x', 'm')]);
    expect(text).toBe(
      '[[0,"x","m","",null,"1,0,0,0,1,1"],[3,"codex","a","p","ref:p","5,0,0,0,5,5"],[3,"codex","b","",null,"1,0,0,0,1,1"]]',
    );
    expect(unpackDayBuckets(DAY, text).map((b) => b.hourStart)).toEqual([
      DAY * DAY_MS,
      DAY * DAY_MS + 3 * HALF_HOUR_MS,
      DAY * DAY_MS + 3 * HALF_HOUR_MS,
    ]);
  });

  it('reads counts exactly on both sides of 15 digits and past 2^53', () => {
    const counts = [0n, 999_999_999_999_999n, 1_000_000_000_000_000n, 2n ** 53n + 1n, 2n ** 63n - 1n];
    const buckets = counts.map((c, slot) => ({ ...bucket(slot, 'codex', 'm'), input: c, cached: c, total: c + 1n }));
    expect(unpackDayBuckets(DAY, packDayBuckets(DAY, buckets))).toEqual(buckets);
  });

  it('refuses a bucket outside its day', () => {
    expect(() => packDayBuckets(DAY, [bucket(48, 'a', 'b')])).toThrow(RangeError);
    expect(() => packDayBuckets(DAY + 1, [bucket(0, 'a', 'b')])).toThrow(RangeError);
    expect(dayOfHalfHour(bucket(47, 'a', 'b').hourStart)).toBe(DAY);
  });

  it('gives back exactly what it packed, any strings and counts past 2^53 included', () => {
    const count = fc.bigInt({ min: 0n, max: 2n ** 63n - 1n });
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    const arb = fc.uniqueArray(
      fc.record({
        hourStart: fc.integer({ min: 0, max: 47 }).map((s) => DAY * DAY_MS + s * HALF_HOUR_MS),
        source: text,
        model: text,
        projectKey: text,
        projectRef: fc.option(text, { nil: null }),
        input: count,
        cached: count,
        output: count,
        reasoning: count,
        total: count,
        billable: count,
      }),
      { selector: (b) => JSON.stringify([b.hourStart, b.source, b.model, b.projectKey]), maxLength: 30 },
    );
    fc.assert(
      fc.property(arb, (buckets) => {
        const back = unpackDayBuckets(DAY, packDayBuckets(DAY, buckets));
        expect(back).toEqual([...buckets].sort(compareBucketKeys));
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});
