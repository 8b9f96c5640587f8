/**
 * @fileoverview The README badge: shields.io's "flat" style (two rounded halves, label and value,
 * Verdana 11 px with a 1 px shadow), so it sits well beside other badges. Each half is as wide as
 * its text measured with shields' Verdana width table plus 5 px on each side, and every text
 * carries `textLength`, so a viewer without Verdana (DejaVu Sans, Geneva) still fills exactly the
 * measured width. Text is drawn at 10× and scaled down, as shields does, for crisp hinting.
 */
import { escapeXml, textWidth } from './text.js';

export interface BadgeSpec {
  label: string;
  value: string;
  /** The value half's colour (#rrggbb). */
  color: string;
}

const LABEL_COLOR = '#555';
const PAD = 5;

function half(text: string): { width: number; textWidth: number } {
  const w = Math.ceil(textWidth(text, 11));
  return { width: w + 2 * PAD, textWidth: w };
}

function label(text: string, x: number, width: number): string {
  const t = escapeXml(text);
  const at = `x="${x * 10}" transform="scale(.1)" textLength="${width * 10}"`;
  return `<text aria-hidden="true" ${at} y="150" fill="#010101" fill-opacity=".3">${t}</text><text ${at} y="140" fill="#fff">${t}</text>`;
}

/** The badge's SVG text (valid XML, every text escaped) and its size. */
export function renderBadge(spec: BadgeSpec): { svg: string; width: number; height: number } {
  const left = half(spec.label);
  const right = half(spec.value);
  const width = left.width + right.width;
  const title = escapeXml(`${spec.label}: ${spec.value}`);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${left.width}" height="20" fill="${LABEL_COLOR}"/>` +
    `<rect x="${left.width}" width="${right.width}" height="20" fill="${spec.color}"/><rect width="${width}" height="20" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">` +
    label(spec.label, left.width / 2, left.textWidth) +
    label(spec.value, left.width + right.width / 2, right.textWidth) +
    `</g></svg>`;
  return { svg, width, height: 20 };
}
