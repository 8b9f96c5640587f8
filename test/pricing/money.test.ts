/** Money text at the edges: formatMicros writes six places, parseMicros reads them back exactly. */
import { describe, expect, it } from 'vitest';
import { formatMicros, parseMicros } from '../../src/pricing/money.js';

describe('money text', () => {
  it('reads back what it writes, beyond 2^53 micro-dollars too', () => {
    for (const micros of [0n, 1n, 999_999n, 1_000_000n, 12_345_678n, 2n ** 60n + 7n])
      expect(parseMicros(formatMicros(micros))).toBe(micros);
  });

  it('reads amounts with fewer places, or none, and drops places past the sixth', () => {
    expect(parseMicros('250')).toBe(250_000_000n);
    expect(parseMicros('99.5')).toBe(99_500_000n);
    expect(parseMicros('0.000001')).toBe(1n);
    expect(parseMicros('1.2345679')).toBe(1_234_567n);
  });
});
