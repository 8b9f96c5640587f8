/** The problem documents an upload's refusals (bad buckets, passed bounds) are answered with, word for word. */
import { describe, expect, it } from 'vitest';
import type { InvalidInput } from '../../src/domain/errors.js';
import { problemOf } from '../../src/http/domain-errors.js';
import { checkDayBound, checkBucketBound, sumsOutOfRange } from '../../src/ingest/core/bounds.js';
import { normalizeBuckets } from '../../src/ingest/core/normalize.js';
import type { IngestRequest } from '../../src/schemas/ingest.js';

const NOW = Date.UTC(2026, 10, 1, 12);

function refusal(run: () => unknown): InvalidInput {
  try {
    run();
  } catch (error) {
    return error as InvalidInput;
  }
  throw new Error('not refused');
}

function answer(run: () => unknown) {
  const error = problemOf(refusal(run));
  return { headers: error.headers, ...error.toProblem() };
}

const sums = (total: bigint) => ({ input: total, cached: 0n, output: 0n, reasoning: 0n, total, billable: total });

describe('an upload refused', () => {
  it('for bad buckets names each, in the body and under data, and the first in the detail', () => {
    const body = {
      hourly: [{ hour_start: '2026-11-01T10:00:00Z' }, { hour_start: '2026-11-01T10:15:00Z' }],
      data: { hourly: [{ hour_start: 'yesterday' }] },
    } as IngestRequest;
    expect(answer(() => normalizeBuckets(body, NOW))).toEqual({
      status: 400,
      headers: {},
      type: 'https://tokentally.dev/problems/invalid-request',
      title: 'Invalid request',
      code: 'invalid_request',
      error: 'invalid_request',
      detail:
        '2 buckets rejected; nothing was stored. First: body.hourly.1.hour_start must fall on a UTC half-hour (minute 0 or 30, seconds zero)',
      message:
        '2 buckets rejected; nothing was stored. First: body.hourly.1.hour_start must fall on a UTC half-hour (minute 0 or 30, seconds zero)',
      errors: [
        { path: '/body/hourly/1/hour_start', message: 'must fall on a UTC half-hour (minute 0 or 30, seconds zero)' },
        {
          path: '/body/data/hourly/0/hour_start',
          message: 'must be an ISO 8601 date-time with a zone designator (Z or an offset)',
        },
      ],
    });
  });

  it('lists at most 50 bad buckets but counts them all', () => {
    const body = {
      hourly: Array.from({ length: 60 }, () => ({ hour_start: '2019-12-31T00:00:00Z' })),
    } as IngestRequest;
    const problem = answer(() => normalizeBuckets(body, NOW));
    expect(problem.errors).toHaveLength(50);
    expect(problem.detail).toBe(
      '60 buckets rejected; nothing was stored. First: body.hourly.0.hour_start must lie between 2020-01-01 and one day from now',
    );
  });

  it('past a bound names the hourly list as a whole', () => {
    const day = Math.floor(NOW / 86_400_000);
    expect(answer(() => checkDayBound(day, sums(5n), sums(6n), 10n))).toMatchObject({
      status: 400,
      code: 'invalid_request',
      detail:
        "This upload would bring the account's tokens on 2026-11-01 (UTC) past 10, the most one account may record in a day.",
      errors: [{ path: '/hourly', message: 'more than 10 tokens on 2026-11-01' }],
    });
    expect(answer(() => checkBucketBound(NOW, 199, 2, 200))).toMatchObject({
      status: 400,
      detail:
        'This upload would store more than 200 (source, model, project) buckets for the half-hour 2026-11-01T12:00:00.000Z on this device.',
      errors: [{ path: '/hourly', message: 'more than 200 buckets for 2026-11-01T12:00:00.000Z' }],
    });
    expect(
      answer(() => {
        throw sumsOutOfRange();
      }),
    ).toMatchObject({
      status: 400,
      detail: "This upload would bring the account's stored sums past what they can hold.",
      errors: [{ path: '/hourly', message: 'sums out of range' }],
    });
  });
});
