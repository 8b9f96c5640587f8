/**
 * @fileoverview What the agent-log generators share: the fixed-seed LCG (one sequence for the
 * whole tree, so every run writes the same bytes), filler text, ids and a JSONL writer.
 */
import fs from 'node:fs';
import path from 'node:path';

export const DAY = 86_400_000;
export const START = Date.UTC(2026, 7, 1);

// ---------- deterministic filler ----------
let seed = 42;
export function rand(): number {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
}
export const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const FILLER = (() => {
  // prettier-ignore
  const words = [
    'const',
    'return',
    'function',
    'import',
    'the',
    'file',
    'error',
    'test',
    'value',
    'string',
    'await',
    'export',
    'type',
    'interface',
    '=>',
    '{',
    '}',
    '\\n',
    'src/lib/util.ts',
    'npm',
    'run',
  ];
  const parts: string[] = [];
  let n = 0;
  while (n < 2_000_000) {
    const w = words[int(0, words.length - 1)] as string;
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ');
})();
export const text = (len: number): string => {
  const at = int(0, FILLER.length - len - 1);
  return FILLER.slice(at, at + len);
};
export const uuid = (): string => {
  const h = (n: number): string => Array.from({ length: n }, () => '0123456789abcdef'[int(0, 15)]).join('');
  return `${h(8)}-${h(4)}-7${h(3)}-8${h(3)}-${h(12)}`;
};

export class Writer {
  private parts: string[] = [];
  size = 0;
  push(obj: unknown): void {
    const s = `${JSON.stringify(obj)}\n`;
    this.parts.push(s);
    this.size += s.length;
  }
  save(file: string): number {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const data = this.parts.join('');
    fs.writeFileSync(file, data);
    return Buffer.byteLength(data);
  }
}
