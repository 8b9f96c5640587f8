/**
 * @fileoverview Text for the badge and card SVGs: XML escaping (text and attributes), widths in
 * Verdana from shields.io's measured width tables (anafanafo), compact numbers.
 */
import measure from 'anafanafo';

/** Characters XML 1.0 forbids (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching the control characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe inside an XML element or a quoted attribute: markup characters escaped, forbidden ones dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** Width in pixels of `text` in Verdana at `size` px (bold or not), as browsers lay it out. */
export function textWidth(text: string, size: number, bold = false): number {
  const base = bold
    ? measure(text, { font: 'bold 10px Verdana', guess: true }) * 1.1
    : measure(text, { font: '11px Verdana', guess: true });
  return (base * size) / 11;
}

/** `text` cut (with an ellipsis) to fit `maxWidth` px at `size`. */
export function fitText(text: string, maxWidth: number, size: number, bold = false): string {
  if (textWidth(text, size, bold) <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 1 && textWidth(chars.join('') + '…', size, bold) > maxWidth) chars.pop();
  return chars.join('').trimEnd() + '…';
}

const UNITS: readonly [bigint, string][] = [
  [1_000_000_000_000_000n, 'P'],
  [1_000_000_000_000n, 'T'],
  [1_000_000_000n, 'B'],
  [1_000_000n, 'M'],
  [1_000n, 'K'],
];

/** Three significant digits with a unit: 950, 12.4K, 1.23M, 124B (rounded down, so a figure never overstates). */
export function compactNumber(n: bigint): string {
  for (const [size, unit] of UNITS) {
    if (n < size) continue;
    const whole = n / size;
    const decimals = whole >= 100n ? 0 : whole >= 10n ? 1 : 2;
    const scaled = (n * 10n ** BigInt(decimals)) / size;
    const text =
      decimals === 0
        ? scaled.toString()
        : `${scaled / 10n ** BigInt(decimals)}.${(scaled % 10n ** BigInt(decimals)).toString().padStart(decimals, '0')}`;
    return (decimals === 0 ? text : text.replace(/\.?0+$/, '')) + unit;
  }
  return n.toString();
}
