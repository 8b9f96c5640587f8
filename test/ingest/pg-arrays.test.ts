/**
 * The ingest writer's array literals (db/pg-arrays.ts) read back on PostgreSQL as the arrays they
 * were built from, and as node-postgres's own conversion of the same arrays: text with quotes,
 * backslashes, braces, commas, spaces, "NULL" and the empty string; NULL elements; 64-bit integers
 * at both ends of the range. fast-check with a fixed, printed seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayColumns, arrayLiteral } from '../../src/db/pg-arrays.js';
import { engine, postgresTestDb } from '../helpers/app.js';

const SEED = Number(process.env.FC_SEED ?? 20_261_124);
console.info(`pg-arrays: fast-check seed ${SEED}`);

const tricky = fc.oneof(
  fc.string({ unit: fc.constantFrom('"', '\\', '{', '}', ',', ' ', 'a', 'N', 'U', 'L', 'é', '😀', "'") }),
  fc.constantFrom('NULL', 'null', '', ' ', '{}', '"', '\\', '\\"'),
);
const INT8_MAX = 2n ** 63n - 1n;

describe('array literals', () => {
  it('refuse a number that is not a safe integer instead of sending it in another notation', () => {
    expect(() => arrayLiteral([1.5])).toThrow(RangeError);
    expect(() => arrayLiteral([1e21])).toThrow(RangeError);
    expect(() => arrayLiteral([Number.NaN])).toThrow(RangeError);
  });

  it('build one literal per getter over the same rows', () => {
    const rows = [
      { a: 'x', n: 1n },
      { a: null, n: 2n },
    ];
    expect(
      arrayColumns(
        rows,
        (r) => r.a,
        (r) => r.n,
      ),
    ).toEqual([arrayLiteral(['x', null]), arrayLiteral([1n, 2n])]);
  });
});

describe.skipIf(engine !== 'postgres')('array literals read back on PostgreSQL', () => {
  const database = postgresTestDb();

  it('text arrays come back as they were, and as node-postgres sends them', async () => {
    const client = await database().pool.connect();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.option(tricky, { nil: null }), { maxLength: 12 }), async (values) => {
          const { rows } = await client.query<{ back: (string | null)[]; same: boolean }>(
            'SELECT $1::text[] AS back, $1::text[] IS NOT DISTINCT FROM $2::text[] AS same',
            [arrayLiteral(values), values],
          );
          expect(rows[0]?.back).toEqual(values);
          expect(rows[0]?.same).toBe(true);
        }),
        { seed: SEED, numRuns: 300 },
      );
    } finally {
      client.release();
    }
  });

  it('int8 arrays keep every 64-bit value exactly', async () => {
    const client = await database().pool.connect();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.bigInt({ min: -INT8_MAX - 1n, max: INT8_MAX }),
              fc.constantFrom(INT8_MAX, -INT8_MAX - 1n, 0n),
              fc.maxSafeInteger(),
              fc.constant(null),
            ),
            { maxLength: 12 },
          ),
          async (values) => {
            const { rows } = await client.query<{ back: string[] | null }>(
              'SELECT array(SELECT v::text FROM unnest($1::int8[]) AS v) AS back',
              [arrayLiteral(values)],
            );
            expect(rows[0]?.back).toEqual(values.map((v) => (v === null ? null : String(v))));
          },
        ),
        { seed: SEED, numRuns: 300 },
      );
    } finally {
      client.release();
    }
  });
});
