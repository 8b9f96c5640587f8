/**
 * @fileoverview The synthetic half-hour bucket the seeding benchmarks write: counts that vary with
 * the half-hour (so sums are not all alike), `scale` times a base size, billable by the source's
 * own convention.
 */
import type { Bucket } from '../../src/domain/bucket.js';
import { billableTokens } from '../../src/domain/billable.js';

export function benchBucket(hourStart: number, source: string, model: string, projectKey: string, scale = 1): Bucket {
  const input = BigInt(1000 * scale + (hourStart % 977));
  const cached = BigInt(400 * scale);
  const output = BigInt(200 * scale + (hourStart % 31));
  const reasoning = BigInt(50 * scale);
  const total = source === 'codex' ? input + output : input + cached + output + reasoning;
  return {
    hourStart,
    source,
    model,
    projectKey,
    projectRef: projectKey === '' ? null : `https://github.com/${projectKey}`,
    input,
    cached,
    output,
    reasoning,
    total,
    billable: billableTokens(source, { input, cached, output, reasoning, total }),
  };
}
