import { describe, expect, it } from 'vitest';
import { DAY_MS, HALF_HOUR_MS } from '../../src/domain/calendar.js';
import type { DayBucket } from '../../src/domain/device-day-buckets.js';
import { daysAfter, daysOf, rowsInHalfHour, storedBuckets, type StoredDays } from '../../src/ingest/device-days.js';
import { planIngest } from '../../src/ingest/plan.js';

const DAY = 20_100;
const at = (day: number, slot: number) => day * DAY_MS + slot * HALF_HOUR_MS;

const bucket = (hourStart: number, model: string, projectKey: string, total: bigint): DayBucket => ({
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

describe("an upload against its device's stored days", () => {
  it('lists the distinct days its buckets fall in', () => {
    expect(daysOf([{ hourStart: at(DAY, 47) }, { hourStart: at(DAY + 1, 0) }, { hourStart: at(DAY, 2) }])).toEqual([
      DAY,
      DAY + 1,
    ]);
    expect(daysOf([])).toEqual([]);
  });

  it('writes back only the days the plan changes, whole, with replaced variants gone', () => {
    const stored: StoredDays = new Map([
      [
        DAY,
        [
          bucket(at(DAY, 4), 'm', 'a', 5n),
          bucket(at(DAY, 4), 'm', 'b', 6n), // the upload drops this variant of its group
          bucket(at(DAY, 9), 'other', '', 7n), // a group it does not mention: kept as it is
        ],
      ],
      [DAY + 1, [bucket(at(DAY + 1, 1), 'm', '', 3n)]], // unchanged: the upload sends the same counts
      [DAY + 2, []],
    ]);
    const upload = [
      bucket(at(DAY, 4), 'm', 'a', 8n),
      bucket(at(DAY + 1, 1), 'm', '', 3n),
      bucket(at(DAY + 2, 0), 'm', '', 1n),
    ];
    const plan = planIngest(upload, storedBuckets(stored));
    const after = daysAfter(stored, plan);
    expect([...after.keys()].sort()).toEqual([DAY, DAY + 2]);
    expect(after.get(DAY)?.map((b) => [b.model, b.projectKey, b.total])).toEqual(
      expect.arrayContaining([
        ['m', 'a', 8n],
        ['other', '', 7n],
      ]),
    );
    expect(after.get(DAY)).toHaveLength(2);
    expect(after.get(DAY + 2)?.map((b) => b.total)).toEqual([1n]);
  });

  it('counts the stored rows of a half-hour for the bucket bound', () => {
    const stored: StoredDays = new Map([[DAY, [bucket(at(DAY, 4), 'm', 'a', 1n), bucket(at(DAY, 4), 'm', 'b', 1n)]]]);
    expect(rowsInHalfHour(stored, at(DAY, 4))).toBe(2);
    expect(rowsInHalfHour(stored, at(DAY, 5))).toBe(0);
    expect(rowsInHalfHour(stored, at(DAY + 3, 5))).toBe(0);
  });
});
