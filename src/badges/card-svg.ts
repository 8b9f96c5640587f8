/**
 * @fileoverview The profile card (440 × 180): initials in a coloured circle, the public name, the
 * period's tokens, the rank, the top model family with its share, and a 12-week bar strip, in a
 * light or a dark theme. Self-contained on purpose: README hosts show SVGs as images, and an
 * SVG shown as an image loads nothing from outside (no avatar URL, no web font), so the avatar is
 * drawn as initials (docs/sharing.md, "Badges and cards").
 */
import { compactNumber, escapeXml, fitText, textWidth } from './text.js';

export type Theme = 'light' | 'dark';
export type Family = 'gpt' | 'claude' | 'other';

export interface CardSpec {
  theme: Theme;
  /** null: the neutral "not public" card (same size, no figures). */
  profile: {
    name: string;
    /** Seeds the circle's colour (the user id). */
    seed: string;
    /** e.g. "AI tokens this week". */
    caption: string;
    tokens: bigint;
    rank: number | null;
    ranked: number;
    /** The family with the most tokens in the period and its share (0–100), or null without usage. */
    top: { family: Family; percent: number } | null;
    /** Billable tokens of the last 12 ISO weeks, oldest first (the last is the current week). */
    weeks: readonly bigint[];
    /** The accent colour of the metric shown. */
    accent: string;
  } | null;
}

export const CARD_WIDTH = 440;
export const CARD_HEIGHT = 180;

const THEMES: Record<Theme, { bg: string; border: string; text: string; muted: string; track: string }> = {
  light: { bg: '#ffffff', border: '#d0d7de', text: '#1f2328', muted: '#59636e', track: '#eaeef2' },
  dark: { bg: '#0d1117', border: '#30363d', text: '#e6edf3', muted: '#9198a1', track: '#21262d' },
};
export const FAMILY_COLORS: Record<Family, string> = { gpt: '#10a37f', claude: '#d97757', other: '#3b82f6' };
const FAMILY_NAMES: Record<Family, string> = { gpt: 'GPT', claude: 'Claude', other: 'other models' };
const FONT = 'font-family="Verdana,Geneva,DejaVu Sans,sans-serif"';

/** Up to two initials of a name ("Ada Lovelace" → "AL", "@octo" → "O"); "?" without letters. */
export function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const letters =
    words.length === 1 ? [...(words[0] as string)].slice(0, 1) : words.slice(0, 2).map((w) => [...w][0] as string);
  return letters.join('').toUpperCase() || '?';
}

/** A stable, readable circle colour from the seed (hue from a string hash). */
function seedColor(seed: string): string {
  let h = 0;
  for (const c of seed) h = (h * 31 + (c.codePointAt(0) ?? 0)) >>> 0;
  return `hsl(${h % 360} 55% 45%)`;
}

function text(x: number, y: number, size: number, fill: string, body: string, extra = ''): string {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}"${extra}>${escapeXml(body)}</text>`;
}

function strip(weeks: readonly bigint[], accent: string, track: string): string {
  const x0 = 24;
  const bottom = 150;
  const height = 34;
  const gap = 4;
  const bar = (CARD_WIDTH - 2 * x0 - gap * (weeks.length - 1)) / weeks.length;
  const max = weeks.reduce((m, w) => (w > m ? w : m), 0n);
  return weeks
    .map((w, i) => {
      const x = (x0 + i * (bar + gap)).toFixed(1);
      const h = max === 0n || w === 0n ? 2 : Math.max(3, Math.round((Number((w * 1000n) / max) / 1000) * height));
      const last = i === weeks.length - 1;
      const fill = w === 0n ? track : accent;
      return `<rect x="${x}" y="${bottom - h}" width="${bar.toFixed(1)}" height="${h}" rx="2" fill="${fill}"${w !== 0n && !last ? ' fill-opacity=".55"' : ''}/>`;
    })
    .join('');
}

/** The card's SVG text (valid XML, every text escaped). */
export function renderCard(spec: CardSpec): string {
  const c = THEMES[spec.theme];
  const p = spec.profile;
  const name = p ? fitText(p.name, 230, 16, true) : 'Tokentally';
  const title = p ? `${p.name}: ${compactNumber(p.tokens)} ${p.caption}` : 'Tokentally: this profile is not public';
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect x="0.5" y="0.5" width="${CARD_WIDTH - 1}" height="${CARD_HEIGHT - 1}" rx="10" fill="${c.bg}" stroke="${c.border}"/>`,
    `<g ${FONT}>`,
    `<circle cx="48" cy="48" r="24" fill="${p ? seedColor(p.seed) : c.track}"/>`,
    `<text x="48" y="54" font-size="17" font-weight="bold" fill="${p ? '#ffffff' : c.muted}" text-anchor="middle">${escapeXml(p ? initials(p.name) : '?')}</text>`,
    text(84, 44, 16, c.text, name, ' font-weight="bold"'),
  ];
  if (!p) {
    parts.push(text(84, 66, 12, c.muted, 'This profile is not public.'));
    parts.push(
      strip(
        Array.from({ length: 12 }, () => 0n),
        c.track,
        c.track,
      ),
    );
  } else {
    parts.push(text(84, 66, 12, c.muted, p.caption));
    parts.push(
      text(416, 46, 22, c.text, p.rank === null ? '–' : `#${p.rank}`, ' font-weight="bold" text-anchor="end"'),
    );
    parts.push(
      text(
        416,
        66,
        11,
        c.muted,
        p.rank === null ? 'not ranked' : `of ${p.ranked.toLocaleString('en-US')}`,
        ' text-anchor="end"',
      ),
    );
    const figure = compactNumber(p.tokens);
    parts.push(text(24, 108, 28, c.text, figure, ' font-weight="bold"'));
    parts.push(text(24 + Math.ceil(textWidth(figure, 28, true)) + 8, 108, 13, c.muted, 'tokens'));
    if (p.top) {
      const label = `${p.top.percent}% ${FAMILY_NAMES[p.top.family]}`;
      parts.push(
        `<circle cx="${416 - Math.ceil(textWidth(label, 12)) - 10}" cy="100" r="4" fill="${FAMILY_COLORS[p.top.family]}"/>`,
      );
      parts.push(text(416, 104, 12, c.muted, label, ' text-anchor="end"'));
    }
    parts.push(strip(p.weeks, p.accent, c.track));
    parts.push(text(416, 168, 10, c.muted, 'last 12 weeks', ' text-anchor="end"'));
  }
  parts.push(text(24, 168, 10, c.muted, 'tokentally'));
  parts.push('</g></svg>');
  return parts.join('');
}
