/**
 * @fileoverview README badges and profile cards of public users, from the leaderboard snapshot
 * (no usage query: the snapshot's row, the identity read every leaderboard read makes, and for a
 * card the 12-week strip once per week snapshot). Anyone else — private, unknown, malformed id —
 * gets one neutral "not public" image, the same for all of them, so an image never tells whether
 * an account exists.
 */
import { createHash } from 'node:crypto';
import { renderBadge } from '../badges/badge-svg.js';
import { PNG_SCALE, svgToPng, type Png } from '../badges/card-png.js';
import { CARD_HEIGHT, CARD_WIDTH, FAMILY_COLORS, renderCard, type Family, type Theme } from '../badges/card-svg.js';
import { compactNumber } from '../badges/text.js';
import type { Metric, Period } from '../domain/leaderboard-ranking.js';
import { BoundedCache } from './bounded-cache.js';
import type { LeaderboardService, PublicStanding } from './leaderboard.js';

const METRIC_LABELS: Record<Metric, string> = {
  all: 'AI tokens',
  gpt: 'GPT tokens',
  claude: 'Claude tokens',
  other: 'other AI tokens',
};
const PERIOD_PHRASES: Record<Period, string> = { week: 'this week', month: 'this month', total: 'all time' };
export const METRIC_COLORS: Record<Metric, string> = { all: '#8250df', ...FAMILY_COLORS };
const NOT_PUBLIC_COLOR = '#9f9f9f';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Image {
  svg: string;
  /** A strong validator of the SVG text. */
  etag: string;
}

/** A card as PNG (link previews); its ETag derives from the SVG's. */
export interface PngImage extends Png {
  etag: string;
}

/** The size of `/card/<user_id>.png`. */
export const CARD_PNG_SIZE = { width: CARD_WIDTH * PNG_SCALE, height: CARD_HEIGHT * PNG_SCALE };

/** PNG renderings kept (about 25 KB each; a rendering takes about 0.1 s of CPU). */
const MAX_PNGS = 256;

function image(svg: string): Image {
  return { svg, etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"` };
}

function tokensIn(s: Pick<PublicStanding, 'gpt' | 'claude' | 'other'>, metric: Metric): bigint {
  return metric === 'all' ? s.gpt + s.claude + s.other : s[metric];
}

/** The family with the most tokens and its whole-percent share, or null without tokens. */
function topFamily(s: PublicStanding): { family: Family; percent: number } | null {
  const total = s.gpt + s.claude + s.other;
  if (total === 0n) return null;
  const family = (['gpt', 'claude', 'other'] as const).reduce((best, f) => (s[f] > s[best] ? f : best));
  return { family, percent: Number((s[family] * 100n) / total) };
}

export class BadgeService {
  private readonly pngs = new BoundedCache<PngImage>(MAX_PNGS);

  constructor(private readonly leaderboard: LeaderboardService) {}

  /** The card as PNG, rendered once per distinct SVG (the SVG changes with the snapshot's figures). */
  async cardPng(userId: string, period: Period, metric: Metric, theme: Theme): Promise<PngImage> {
    const card = await this.card(userId, period, metric, theme);
    const cached = this.pngs.get(card.etag);
    if (cached) return cached;
    const png = { ...svgToPng(card.svg), etag: `"png-${card.etag.slice(1)}` };
    this.pngs.set(card.etag, png);
    return png;
  }

  private standing(userId: string, period: Period, metric: Metric): Promise<PublicStanding | undefined> {
    return UUID.test(userId)
      ? this.leaderboard.publicStanding(userId.toLowerCase(), period, metric)
      : Promise.resolve(undefined);
  }

  async badge(userId: string, period: Period, metric: Metric): Promise<Image> {
    const s = await this.standing(userId, period, metric);
    const label = METRIC_LABELS[metric];
    if (!s) return image(renderBadge({ label, value: 'not public', color: NOT_PUBLIC_COLOR }).svg);
    return image(
      renderBadge({
        label,
        value: `${compactNumber(tokensIn(s, metric))} ${PERIOD_PHRASES[period]}`,
        color: METRIC_COLORS[metric],
      }).svg,
    );
  }

  async card(userId: string, period: Period, metric: Metric, theme: Theme): Promise<Image> {
    const s = await this.standing(userId, period, metric);
    if (!s) return image(renderCard({ theme, profile: null }));
    const weeks = await this.leaderboard.weeklyStrip(userId.toLowerCase());
    return image(
      renderCard({
        theme,
        profile: {
          name: s.displayName ?? 'Tokentally user',
          seed: userId.toLowerCase(),
          caption: `${METRIC_LABELS[metric]} ${PERIOD_PHRASES[period]}`,
          tokens: tokensIn(s, metric),
          rank: s.rank,
          ranked: s.ranked,
          top: topFamily(s),
          weeks: weeks.map((w) => tokensIn(w, metric)),
          accent: METRIC_COLORS[metric],
        },
      }),
    );
  }
}
