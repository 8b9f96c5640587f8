/**
 * How the SQLite writer thread joins the groups waiting for it (src/ingest/sqlite-thread-join.ts):
 * consecutive groups priced with the same data, none to be written alone, up to the most uploads a
 * transaction takes; each sender answered with its own uploads' outcomes. Pure: no thread, no
 * database (test/ingest/writer-thread-overlap.test.ts runs the thread).
 */
import { describe, expect, it } from 'vitest';
import type { RateTable } from '../../src/ingest/day-rates.js';
import type { GroupWork } from '../../src/ingest/sqlite-group-writer.js';
import { repliesOf, takeJoined } from '../../src/ingest/sqlite-thread-join.js';
import { toWireWork, type ToThread } from '../../src/ingest/sqlite-thread-wire.js';
import type { TokenRates } from '../../src/pricing/rates.js';
import { seedBucket } from '../helpers/seed.js';

const USER = '00000000-0000-4000-8000-000000000001';
const rates = (n: bigint): TokenRates => ({ input: n, cached: n, output: n, reasoning: n });

/** A group of `uploads` one-bucket uploads from device `device`, with one rate for `model` on day 1 and `day`. */
function work(device: string, uploads: number, fingerprint: string | null, model = 'gpt-5', day = 2): GroupWork {
  const table: RateTable = new Map([
    [
      model,
      new Map([
        [1, rates(1n)],
        [day, rates(BigInt(day))],
      ]),
    ],
  ]);
  return {
    batches: Array.from({ length: uploads }, (_, i) => ({
      userId: USER,
      deviceId: `${device}${i}`,
      now: 1,
      buckets: [seedBucket(BigInt(i + 1), { model })],
      subscriptions: undefined,
    })),
    fingerprint,
    rates: table,
  };
}

const sent = (id: number, w: GroupWork, alone = false): ToThread => ({
  id,
  work: toWireWork(w),
  ...(alone ? { alone } : {}),
});
const devicesOf = (w: GroupWork) => w.batches.map((b) => b.deviceId);

describe('joining the groups that wait for the SQLite writer thread', () => {
  it('joins consecutive groups priced with the same data, in order, with every rate any of them resolved', () => {
    const waiting = [
      sent(1, work('a', 2, 'p1', 'gpt-5', 2)),
      sent(2, work('b', 1, 'p1', 'gpt-5', 3)),
      sent(3, work('c', 3, 'p1', 'claude', 4)),
    ];
    const joined = takeJoined(waiting);
    expect(waiting).toEqual([]);
    expect(joined?.parts).toEqual([
      { id: 1, uploads: 2 },
      { id: 2, uploads: 1 },
      { id: 3, uploads: 3 },
    ]);
    expect(devicesOf(joined!.work)).toEqual(['a0', 'a1', 'b0', 'c0', 'c1', 'c2']);
    expect(joined?.work.fingerprint).toBe('p1');
    expect(joined?.work.rates).toEqual(
      new Map([
        [
          'gpt-5',
          new Map([
            [1, rates(1n)],
            [2, rates(2n)],
            [3, rates(3n)],
          ]),
        ],
        [
          'claude',
          new Map([
            [1, rates(1n)],
            [4, rates(4n)],
          ]),
        ],
      ]),
    );
  });

  it('stops at a group priced with other data, one to be written alone, the word to close, or the most uploads', () => {
    const waiting: ToThread[] = [
      sent(1, work('a', 1, 'p1')),
      sent(2, work('b', 1, 'p2')), // other price data
      sent(3, work('c', 1, 'p2')),
      sent(4, work('d', 1, 'p2'), true), // alone
      sent(5, work('e', 1, 'p2')),
      sent(6, work('f', 3, 'p2')),
      sent(7, work('g', 1, 'p2')), // past the most (4 here)
      { id: 8, close: true },
      sent(9, work('h', 1, 'p2')),
    ];
    const ids = () => takeJoined(waiting, 4)?.parts.map((p) => p.id);
    expect(ids()).toEqual([1]);
    expect(ids()).toEqual([2, 3]);
    expect(ids()).toEqual([4]);
    expect(ids()).toEqual([5, 6]);
    expect(ids()).toEqual([7]);
    expect(ids()).toBeUndefined(); // the word to close comes first: left for the thread
    expect(waiting.map((m) => m.id)).toEqual([8, 9]);
    expect(takeJoined([])).toBeUndefined();
  });

  it('never joins a group to be written alone with the groups behind it', () => {
    const waiting = [sent(1, work('a', 1, null), true), sent(2, work('b', 1, null))];
    expect(takeJoined(waiting)?.parts.map((p) => p.id)).toEqual([1]);
    expect(takeJoined(waiting)?.parts.map((p) => p.id)).toEqual([2]);
  });

  it("answers each sender with its own uploads' outcomes, or with how the whole group ended", () => {
    const joined = takeJoined([sent(1, work('a', 2, null)), sent(2, work('b', 1, null))])!;
    const result = (inserted: number) => ({ inserted, skipped: 0, projectInserted: 0, projectSkipped: 0 });
    const written = repliesOf(joined, {
      kind: 'written',
      outcomes: [
        { ok: true, result: result(1) },
        { ok: false, error: new Error('the second') },
        { ok: true, result: result(3) },
      ],
    });
    expect(written).toEqual([
      {
        id: 1,
        kind: 'written',
        outcomes: [
          { ok: true, result: result(1) },
          { ok: false, error: { kind: 'error', name: 'Error', message: 'the second' } },
        ],
      },
      { id: 2, kind: 'written', outcomes: [{ ok: true, result: result(3) }] },
    ]);
    expect(repliesOf(joined, { kind: 'busy' })).toEqual([
      { id: 1, kind: 'busy' },
      { id: 2, kind: 'busy' },
    ]);
    const failed = { kind: 'error', name: 'Error', message: 'disk full' } as const;
    expect(repliesOf(joined, { kind: 'failed', error: failed })).toEqual([
      { id: 1, kind: 'failed', error: failed },
      { id: 2, kind: 'failed', error: failed },
    ]);
  });
});
