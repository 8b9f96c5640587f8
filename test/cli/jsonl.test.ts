/**
 * The key scan of readJsonl: a line reaches the parser exactly when it holds one of the needles
 * and none of the skip markers in its first 512 bytes, whatever the chunk boundaries; checked
 * against a plain per-line filter on generated files (fixed seed) spanning several 4 MiB chunks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonl, type LineStats } from '../../src/cli/jsonl.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokentally-jsonl-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('readJsonl key scan', () => {
  it('hands over exactly the lines a per-line filter would', () => {
    const rand = rng(41);
    const needles = ['"usage"', '"token_count"'];
    const markers = ['"type":"response_item"'];
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 9 * 1024 * 1024; i += 1) {
      const pad = 'x'.repeat(Math.floor(rand() * (rand() < 0.05 ? 200_000 : 900)));
      const r = rand();
      const line =
        r < 0.2
          ? { i, pad, usage: { n: i } }
          : r < 0.3
            ? { i, type: 'response_item', usage: 1 } // marker near the start: skipped
            : r < 0.35
              ? { i, pad: 'y'.repeat(600), late: 'response_item', t: '"type":"response_item"', k: 'usage' } // escaped, not a key
              : r < 0.4
                ? { i, payload: { type: 'token_count' }, pad }
                : r < 0.45
                  ? { pad: 'z'.repeat(520), i, type: 'response_item', usage: 2 } // marker past 512 bytes: kept
                  : { i, pad, note: 'usage' };
      const text = JSON.stringify(line);
      lines.push(text);
      size += text.length + 1;
    }
    const file = path.join(dir, 'a.jsonl');
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const seen: number[] = [];
    const stats: LineStats = { lines: 0, malformed: 0 };
    readJsonl(file, 0, needles, (obj) => seen.push(obj['i'] as number), stats, markers);
    const expected = lines
      .filter((l) => !markers.some((m) => l.slice(0, 512).includes(m)) && needles.some((n) => l.includes(n)))
      .map((l) => (JSON.parse(l) as { i: number }).i);
    expect(expected.length).toBeGreaterThan(1000);
    expect(seen).toEqual(expected);
    expect(stats).toEqual({ lines: lines.length, malformed: 0 });
  });
});
