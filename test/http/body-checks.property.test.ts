/**
 * The checks every request body goes through, against plain references that follow the text or
 * the value one character at a time: the nesting and value bounds (http/json-bounds.ts, which count
 * with indexOf and skip strings whole) and the control-character check (http/validation.ts, which
 * builds a path only once it has found one). fast-check with a fixed, printed seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsMoreValuesThan, nestsDeeperThan } from '../../src/http/json-bounds.js';
import { controlCharacterPath } from '../../src/http/validation.js';

const SEED = Number(process.env.FC_SEED ?? 20_261_124);
console.info(`body-checks.property: fast-check seed ${SEED}`);

/** The reference walk: each character outside strings, a backslash in a string skipping one character. */
function outsideStrings(text: string, visit: (c: string) => boolean | void): void {
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (visit(c) === true) return;
  }
}

/** The reference: depth followed character by character. */
function referenceNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let deeper = false;
  outsideStrings(text, (c) => {
    if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') depth -= 1;
    deeper = depth > max;
    return deeper;
  });
  return deeper;
}

/** The reference: commas and openings outside strings, character by character. */
function referenceValues(text: string): number {
  let count = 0;
  outsideStrings(text, (c) => {
    if (c === ',' || c === '{' || c === '[') count += 1;
  });
  return count;
}

// eslint-disable-next-line no-control-regex -- the point of this expression
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The reference: every string and key, with the path of the first that holds a control character. */
function referencePath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return CONTROL.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, inner] of value.entries()) {
      const found = referencePath(inner, `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (CONTROL.test(key)) return at;
    const found = referencePath(inner, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Texts made of the characters that matter to the scan, so brackets, quotes and escapes meet often. */
const jsonishText = fc
  .array(fc.constantFrom('{', '}', '[', ']', '"', '\\', 'a', ',', ':', '1', ' '), { maxLength: 200 })
  .map((chars) => chars.join(''));

/** Deeply nested texts around the bound, with strings (and escaped quotes) holding brackets. */
const nestedText = fc
  .tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom('"[[["', '"\\"[{"', '"\\\\"', '1'), fc.boolean())
  .map(([depth, inner, objects]) =>
    objects ? '{"a":'.repeat(depth) + inner + '}'.repeat(depth) : '['.repeat(depth) + inner + ']'.repeat(depth),
  );

const text = fc.string({ unit: fc.constantFrom('a', '\u0000', '\u001f', '\u007f', '\u009f', '\u00a0', 'é', '/', '~') });
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('body checks against their references', () => {
  it('nestsDeeperThan agrees with the character-by-character scan', () => {
    fc.assert(
      fc.property(fc.oneof(jsonishText, nestedText), fc.integer({ min: 0, max: 34 }), (body, max) => {
        expect(nestsDeeperThan(body, max)).toBe(referenceNestsDeeperThan(body, max));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('refuses 33 levels and accepts 32, also behind strings full of brackets and escaped quotes', () => {
    const padding = `"${'['.repeat(40)}\\"${'{'.repeat(40)}"`;
    expect(nestsDeeperThan(`[${padding},${'['.repeat(32)}${']'.repeat(32)}]`, 32)).toBe(true);
    expect(nestsDeeperThan(`[${padding},${'['.repeat(31)}${']'.repeat(31)}]`, 32)).toBe(false);
  });

  it('holdsMoreValuesThan agrees with the character-by-character count', () => {
    fc.assert(
      fc.property(fc.oneof(jsonishText, nestedText), fc.integer({ min: 0, max: 60 }), (body, max) => {
        expect(holdsMoreValuesThan(body, max)).toBe(referenceValues(body) > max);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('controlCharacterPath agrees with the reference on generated values', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        expect(controlCharacterPath(value)).toBe(referencePath(value));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});
