/**
 * A group's uploads packed for the SQLite writer thread come out of the structured clone exactly as
 * they went in: any names (shared, null, empty), counts up to 2^64 - 1, uploads without buckets,
 * subscriptions. The seed is fixed and printed so any failure replays exactly.
 */
import type { Bucket } from '../../src/domain/bucket.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packBatches, unpackBatches } from '../../src/ingest/sqlite/thread/packing.js';
import type { IngestBatch } from '../../src/ingest/types.js';

const SEED = 20261125;
console.info(`sqlite-thread-packing: fast-check seed ${SEED}`);

const U64_MAX = (1n << 64n) - 1n;
const count = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.constantFrom(0n, 2n ** 53n + 1n, U64_MAX));
const name = fc.oneof(fc.constantFrom('codex', 'claude', 'gpt-5', ''), fc.string({ maxLength: 12 }));

const bucket: fc.Arbitrary<Bucket> = fc.record({
  hourStart: fc.integer({ min: 0, max: 2 ** 40 }).map((n) => n * 1_800_000),
  source: name,
  model: name,
  projectKey: name,
  projectRef: fc.option(name, { nil: null }),
  input: count,
  cached: count,
  output: count,
  reasoning: count,
  total: count,
  billable: count,
});

const batch: fc.Arbitrary<IngestBatch> = fc.record({
  userId: fc.uuid(),
  deviceId: fc.uuid(),
  now: fc.integer({ min: 0, max: 2 ** 45 }),
  buckets: fc.array(bucket, { maxLength: 12 }),
  subscriptions: fc.option(
    fc.array(
      fc.record({
        tool: fc.option(name, { nil: null }),
        provider: fc.option(name, { nil: null }),
        product: fc.option(name, { nil: null }),
        planType: fc.option(name, { nil: null }),
        rateLimitTier: fc.option(name, { nil: null }),
        details: name,
      }),
      { maxLength: 2 },
    ),
    { nil: undefined },
  ),
});

describe('packed uploads', () => {
  it('cross the structured clone and unpack to the uploads that were packed', () => {
    fc.assert(
      fc.property(fc.array(batch, { maxLength: 8 }), (batches) => {
        const packed = packBatches(batches);
        expect(packed).toBeDefined();
        expect(unpackBatches(structuredClone(packed!))).toEqual(batches);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('are refused when a count does not fit in 64 bits, so the group crosses as it is', () => {
    const fits: IngestBatch = {
      userId: 'u',
      deviceId: 'd',
      now: 1,
      subscriptions: undefined,
      buckets: [
        {
          hourStart: 0,
          source: 'codex',
          model: 'm',
          projectKey: '',
          projectRef: null,
          input: U64_MAX,
          cached: 0n,
          output: 0n,
          reasoning: 0n,
          total: U64_MAX,
          billable: 0n,
        },
      ],
    };
    expect(packBatches([fits])).toBeDefined();
    const beyond = { ...fits, buckets: [{ ...fits.buckets[0]!, total: U64_MAX + 1n }] };
    expect(packBatches([fits, beyond])).toBeUndefined();
  });
});
