/**
 * @fileoverview The nesting bound on request bodies. No operation's body nests deeper than a few
 * levels; a body nested deeper than MAX_BODY_DEPTH is refused from its text, before JSON.parse or
 * any recursive code (normalisers, serializers) walks it.
 */

export const MAX_BODY_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether JSON text opens more than `max` objects/arrays inside one another (strings are skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  return !opensAtMost(text, max) && nestingDepthExceeds(text, max);
}

/**
 * Whether the text holds at most `max` opening braces and brackets in all (strings included):
 * then nothing can nest deeper. Counted with indexOf, several times faster than the character scan
 * below; an ordinary upload holds a dozen.
 */
function opensAtMost(text: string, max: number): boolean {
  let count = 0;
  for (const open of ['{', '[']) {
    for (let i = text.indexOf(open); i !== -1; i = text.indexOf(open, i + 1)) if (++count > max) return false;
  }
  return true;
}

/** The exact scan: depth followed character by character, strings (and their escapes) skipped. */
function nestingDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

/** The index of the quote closing the string opened at `open` (the text's end when none does). */
function endOfString(text: string, open: number): number {
  let i = open + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}
