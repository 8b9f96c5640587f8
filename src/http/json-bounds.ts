/**
 * @fileoverview The bounds a request body's text must keep before it is parsed. No operation's
 * body nests deeper than a few levels: a body nested deeper than MAX_BODY_DEPTH is refused before
 * JSON.parse or any recursive code (normalisers, serializers) walks it. The largest real body, an
 * upload of 500 buckets, holds under 10,000 values: a body of more than MAX_BODY_VALUES is refused
 * before JSON.parse builds them (a mebibyte of `{}` is 350,000 objects, ~100 ms to parse here and
 * more to collect; docs/security.md, "Input and responses").
 */

export const MAX_BODY_DEPTH = 32;
/** The most values (array items and object members, roughly: commas and openings) a body's text may hold. */
export const MAX_BODY_VALUES = 20_000;
const COMMA = 0x2c;

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

/**
 * Whether JSON text holds more than `max` commas and openings outside its strings. Counted first
 * with indexOf over the whole text (strings included): an ordinary body stops there.
 */
export function holdsMoreValuesThan(text: string, max: number): boolean {
  let count = 0;
  for (const mark of [',', '{', '[']) {
    for (let i = text.indexOf(mark); i !== -1; i = text.indexOf(mark, i + 1))
      if (++count > max) return valuesExceed(text, max);
  }
  return false;
}

/** The exact count: commas and openings character by character, strings (and their escapes) skipped. */
function valuesExceed(text: string, max: number): boolean {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = endOfString(text, i);
    else if ((c === COMMA || c === OPEN_BRACE || c === OPEN_BRACKET) && ++count > max) return true;
  }
  return false;
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
