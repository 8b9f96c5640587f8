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
import {
  daysAfter,
  daysOf,
  mentionedGroups,
  readDay,
  bucketsInHalfHour,
  storedBuckets,
  type StoredDays,
} from '../../src/ingest/core/device-days.js';
import { planIngest } from '../../src/ingest/core/plan.js';

const SEED = 20_261_128;
console.info(`device-days: fast-check seed ${SEED}`);

const DAY = 20_100;
const at = (day: number, slot: number) => day * DAY_MS + slot * HALF_HOUR_MS;

const bucket = (hourStart: number, model: string, projectKey: string, total: bigint): Bucket => ({
  hourStart,
  source: 'codex',
  model,
  projectKey,
  projectRef: null,
  input: total,
  cached: 0n,
  output: 0n,
  reasoning: 0n,
  total,
  billable: total,
});

/** The days as a writer reads them for `upload`, from what `stored` holds. */
function read(upload: readonly Bucket[], stored: Map<number, Bucket[]>): StoredDays {
  const groups = mentionedGroups(upload);
  const days: StoredDays = new Map();
  for (const day of daysOf(upload)) {
    const list = stored.get(day);
    days.set(day, readDay(day, list && packDayBuckets(day, list), groups));
  }
  return days;
}

describe("an upload against its device's stored days", () => {
  it('lists the distinct days its buckets fall in', () => {
    expect(daysOf([{ hourStart: at(DAY, 47) }, { hourStart: at(DAY + 1, 0) }, { hourStart: at(DAY, 2) }])).toEqual([
      DAY,
      DAY + 1,
    ]);
    expect(daysOf([])).toEqual([]);
  });

  it('parses only the groups the upload mentions; the rest of a day goes back as it was', () => {
    const untouched = { ...bucket(at(DAY, 9), 'other', '', 7n), projectRef: 'ref "quoted"', cached: 2n ** 60n };
    const stored = new Map([
      [
        DAY,
        [
          bucket(at(DAY, 4), 'm', 'a', 5n),
          bucket(at(DAY, 4), 'm', 'b', 6n), // the upload drops this variant of its group
          untouched, // a group it does not mention
          bucket(at(DAY, 4), 'n', '', 2n), // same half-hour, another model: not mentioned either
        ],
      ],
      [DAY + 1, [bucket(at(DAY + 1, 1), 'm', '', 3n)]], // unchanged: the upload sends the same counts
    ]);
    const upload = [
      bucket(at(DAY, 4), 'm', 'a', 8n),
      bucket(at(DAY + 1, 1), 'm', '', 3n),
      bucket(at(DAY + 2, 0), 'm', '', 1n),
    ];
    const days = read(upload, stored);
    expect(days.get(DAY)?.mentioned.map((b) => b.projectKey)).toEqual(['a', 'b']);
    expect(days.get(DAY)?.others).toHaveLength(2);
    expect(storedBuckets(days)).toHaveLength(3);

    const after = daysAfter(days, planIngest(upload, storedBuckets(days)), upload);
    expect([...after.keys()].sort()).toEqual([DAY, DAY + 2]);
    const day = after.get(DAY) as string;
    expect(day).toBe(
      packDayBuckets(DAY, [bucket(at(DAY, 4), 'm', 'a', 8n), bucket(at(DAY, 4), 'n', '', 2n), untouched]),
    );
    expect(unpackDayBuckets(DAY, day)).toContainEqual(untouched);
    expect(unpackDayBuckets(DAY + 2, after.get(DAY + 2) as string).map((b) => b.total)).toEqual([1n]);
  });

  it('counts every stored bucket of a half-hour for the bucket bound, mentioned or not', () => {
    const stored = new Map([
      [DAY, [bucket(at(DAY, 4), 'm', 'a', 1n), bucket(at(DAY, 4), 'm', 'b', 1n), bucket(at(DAY, 4), 'x', '', 1n)]],
    ]);
    const days = read([bucket(at(DAY, 4), 'm', 'a', 2n)], stored);
    expect(bucketsInHalfHour(days, at(DAY, 4))).toBe(3);
    expect(bucketsInHalfHour(days, at(DAY, 5))).toBe(0);
    expect(bucketsInHalfHour(days, at(DAY + 3, 5))).toBe(0);
  });

  it("leaves each changed day holding what applying the plan's deletes and upserts to it gives", () => {
    const keyOf = (b: Bucket) => `${b.hourStart}|${b.source}|${b.model}|${b.projectKey}`;
    // A small key space (two days, the same slot in both, two models, three projects), so uploads meet
    // stored groups, replace some variants and leave others out.
    const arb = fc.uniqueArray(
      fc.record({
        hourStart: fc.constantFrom(at(DAY, 0), at(DAY, 1), at(DAY + 1, 0), at(DAY + 1, 47)),
        source: fc.constant('codex'),
        model: fc.constantFrom('m', 'n'),
        projectKey: fc.constantFrom('', 'a', 'b'),
        projectRef: fc.constantFrom(null, 'r'),
        input: fc.bigInt({ min: 0n, max: 3n }),
        cached: fc.constant(0n),
        output: fc.constant(0n),
        reasoning: fc.constant(0n),
        total: fc.bigInt({ min: 0n, max: 3n }),
        billable: fc.constant(1n),
      }),
      { selector: keyOf, maxLength: 12 },
    );
    fc.assert(
      fc.property(arb, arb, (storedList, upload) => {
        const stored = new Map<number, Bucket[]>();
        for (const b of storedList) {
          const day = dayOfHalfHour(b.hourStart);
          stored.set(day, [...(stored.get(day) ?? []), b]);
        }
        const days = read(upload, stored);
        const plan = planIngest(upload, storedBuckets(days));
        const expected = new Map<number, Map<string, Bucket>>();
        const dayAfterPlan = (hourStart: number) => {
          const day = dayOfHalfHour(hourStart);
          let byKey = expected.get(day);
          if (byKey === undefined) {
            byKey = new Map((stored.get(day) ?? []).map((b) => [keyOf(b), b]));
            expected.set(day, byKey);
          }
          return byKey;
        };
        for (const d of plan.deletes) dayAfterPlan(d.hourStart).delete(keyOf(d));
        for (const u of plan.upserts) dayAfterPlan(u.hourStart).set(keyOf(u), u);
        const after = daysAfter(days, plan, upload);
        expect([...after.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [day, byKey] of expected) {
          expect(unpackDayBuckets(day, after.get(day) as string)).toEqual([...byKey.values()].sort(compareBucketKeys));
        }
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });
});
