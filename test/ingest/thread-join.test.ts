/**
 * How the SQLite writer thread joins the groups waiting for it (src/ingest/sqlite/thread/join.ts):
 * consecutive groups priced with the same data, up to the most uploads a transaction takes; each
 * sender answered with its own uploads' outcomes, and a joined group that fails as a whole written
 * again group by group. No thread, no database: the group write is a function that answers what
 * the test says (test/ingest/writer-thread-overlap.test.ts runs the thread on a database file).
 */
import { describe, expect, it } from 'vitest';
import type { RateTable } from '../../src/ingest/core/day-rates.js';
import type { GroupReply, GroupWork } from '../../src/ingest/sqlite/group-write.js';
import { takeJoined, writeJoined } from '../../src/ingest/sqlite/thread/join.js';
import { toWireWork, type ToThread } from '../../src/ingest/sqlite/thread/wire.js';
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

const sent = (id: number, w: GroupWork): ToThread => ({ id, work: toWireWork(w) });
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
    expect(joined?.parts.map((p) => [p.id, devicesOf(p.work)])).toEqual([
      [1, ['a0', 'a1']],
      [2, ['b0']],
      [3, ['c0', 'c1', 'c2']],
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

  it('stops at a group priced with other data, the word to close, or the most uploads', () => {
    const waiting: ToThread[] = [
      sent(1, work('a', 1, 'p1')),
      sent(2, work('b', 1, 'p2')), // other price data
      sent(3, work('c', 1, 'p2')),
      sent(4, work('f', 3, 'p2')), // past the most (4 here)
      sent(5, work('g', 1, 'p2')),
      { id: 6, close: true },
      sent(7, work('h', 1, 'p2')),
    ];
    const ids = () => takeJoined(waiting, 4)?.parts.map((p) => p.id);
    expect(ids()).toEqual([1]);
    expect(ids()).toEqual([2, 3]);
    expect(ids()).toEqual([4, 5]);
    expect(ids()).toBeUndefined(); // the word to close comes first: left for the thread
    expect(waiting.map((m) => m.id)).toEqual([6, 7]);
    expect(takeJoined([])).toBeUndefined();
  });

  const result = (inserted: number) => ({ inserted, skipped: 0, projectInserted: 0, projectSkipped: 0 });

  it("answers each sender with its own uploads' outcomes, or with how the whole group ended", () => {
    const joined = takeJoined([sent(1, work('a', 2, null)), sent(2, work('b', 1, null))])!;
    const written = writeJoined(joined, () => ({
      kind: 'written',
      outcomes: [
        { ok: true, result: result(1) },
        { ok: false, error: new Error('the second') },
        { ok: true, result: result(3) },
      ],
    }));
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
    expect(writeJoined(joined, () => ({ kind: 'busy' }))).toEqual([
      { id: 1, kind: 'busy' },
      { id: 2, kind: 'busy' },
    ]);
  });

  it('writes a joined group that failed as a whole again group by group, so only the group at fault fails', () => {
    const joined = takeJoined([
      sent(1, work('a', 2, null)),
      sent(2, work('bad', 1, null)),
      sent(3, work('c', 1, null)),
    ])!;
    const writes: string[][] = [];
    const write = (w: GroupWork): GroupReply => {
      writes.push(devicesOf(w));
      if (devicesOf(w).includes('bad0')) throw new Error('sums out of range');
      return { kind: 'written', outcomes: w.batches.map((_, i) => ({ ok: true, result: result(i + 1) })) };
    };
    expect(writeJoined(joined, write)).toEqual([
      {
        id: 1,
        kind: 'written',
        outcomes: [
          { ok: true, result: result(1) },
          { ok: true, result: result(2) },
        ],
      },
      { id: 2, kind: 'failed', error: { kind: 'error', name: 'Error', message: 'sums out of range' } },
      { id: 3, kind: 'written', outcomes: [{ ok: true, result: result(1) }] },
    ]);
    expect(writes).toEqual([['a0', 'a1', 'bad0', 'c0'], ['a0', 'a1'], ['bad0'], ['c0']]);
  });
});
