/** Normalisation of uploaded buckets: the fast parser of canonical UTC instants agrees with the general ISO 8601 parser; duplicates collapse to the last. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  normalizeBuckets,
  parseAnyZoned,
  parseCanonicalUtc,
  parseZonedInstant,
} from '../../src/ingest/core/normalize.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('parseCanonicalUtc', () => {
  it('agrees with the general parser on every canonical-shaped text, impossible dates included', () => {
    const seed = 20261123;
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (y, mo, d, h, mi, s) => {
          const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}Z`;
          expect(parseCanonicalUtc(text)).toBe(parseAnyZoned(text));
        },
      ),
      { seed, numRuns: 5000 },
    );
  });

  it('leaves every other form to the general parser', () => {
    for (const text of [
      '2026-11-23T10:30Z',
      '2026-11-23t10:30:00z',
      '2026-11-23T10:30:00.000Z',
      '2026-11-23T10:30:00+00:00',
      '2026-11-23T1a:30:00Z',
      '2026-02-29T00:00:00Z',
    ]) {
      expect(parseCanonicalUtc(text)).toBeUndefined();
    }
    expect(parseZonedInstant('2026-11-23t10:30:00z')).toBe(Date.UTC(2026, 10, 23, 10, 30));
    expect(parseZonedInstant('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    expect(parseZonedInstant('2026-11-23T10:30:00+01:00')).toBe(Date.UTC(2026, 10, 23, 9, 30));
  });
});

describe('normalizeBuckets', () => {
  it('keeps the last of duplicate buckets (same half-hour, source, model and project) in its own position', () => {
    const at = '2026-11-01T10:00:00Z';
    const buckets = normalizeBuckets(
      {
        hourly: [
          { hour_start: at, source: 'codex', model: 'gpt-5', total_tokens: 1 },
          { hour_start: at, source: 'Codex ', model: 'GPT-5', project_key: 'acme/api', total_tokens: 2 }, // other project: kept
          { hour_start: at, source: 'claude', model: 'gpt-5', total_tokens: 3 }, // other source: kept
          { hour_start: '2026-11-01T11:00:00+01:00', source: 'codex', model: 'gpt-5', total_tokens: 4 }, // the first one again
          { hour_start: at, source: 'codex', model: 'gpt-5', project_key: 'acme/api', total_tokens: 5 }, // the second one again
        ],
      },
      Date.UTC(2026, 10, 2),
    );
    expect(buckets.map((b) => [b.source, b.projectKey, b.total])).toEqual([
      ['claude', '', 3n],
      ['codex', '', 4n],
      ['codex', 'acme/api', 5n],
    ]);
  });
});
