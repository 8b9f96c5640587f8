/**
 * Property: Claude deduplication (fullest copy per message + request id, sidechain replays
 * losing to their parent, across files) gives the same totals whatever order the files are
 * discovered and synced in.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeHome, readBuckets, removeHome, runScan, type TestHome } from './helpers.js';

const lineArb = fc.record({
  file: fc.integer({ min: 0, max: 2 }),
  msg: fc.integer({ min: 0, max: 5 }),
  req: fc.integer({ min: 0, max: 2 }),
  side: fc.boolean(),
  out: fc.integer({ min: 1, max: 500 }),
  cache: fc.integer({ min: 0, max: 10_000 }),
});

type Line = { file: number; msg: number; req: number; side: boolean; out: number; cache: number };

function render(l: Line): string {
  return `${JSON.stringify({
    type: 'assistant',
    timestamp: '2026-11-01T10:00:00Z',
    isSidechain: l.side,
    requestId: `req_${l.req}`,
    message: {
      id: `msg_${l.msg}`,
      model: `claude-${l.msg % 2}`,
      usage: { input_tokens: 3, cache_read_input_tokens: l.cache, output_tokens: l.out },
    },
  })}\n`;
}

function perModel(h: TestHome): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, c] of Object.entries(readBuckets(h.env))) {
    const model = name.split('|')[2] ?? '';
    out[model] = (out[model] ?? 0) + c.total;
  }
  return out;
}

describe('claude dedup', () => {
  it('does not depend on the order files are synced in', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 25 }),
        fc.constantFrom([0, 1, 2], [2, 1, 0], [1, 2, 0]),
        (lines, order) => {
          const together = makeHome();
          const apart = makeHome();
          try {
            const fileOf = (h: TestHome, n: number) =>
              path.join(h.env['CLAUDE_CONFIG_DIR'] as string, 'projects', 'p', `f${n}.jsonl`);
            for (const h of [together, apart]) fs.mkdirSync(path.dirname(fileOf(h, 0)), { recursive: true });
            for (let n = 0; n < 3; n += 1)
              fs.writeFileSync(
                fileOf(together, n),
                lines
                  .filter((l) => l.file === n)
                  .map(render)
                  .join(''),
              );
            runScan(together.env);
            for (const n of order) {
              fs.writeFileSync(
                fileOf(apart, n),
                lines
                  .filter((l) => l.file === n)
                  .map(render)
                  .join(''),
              );
              runScan(apart.env);
            }
            expect(perModel(apart)).toEqual(perModel(together));
          } finally {
            removeHome(together);
            removeHome(apart);
          }
        },
      ),
      { numRuns: 40, seed: 1122 },
    );
  });
});
