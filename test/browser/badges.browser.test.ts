/**
 * The badge and card as README hosts show them: SVG in an <img>, rendered by Chromium (Debian's
 * /usr/bin/chromium through playwright-core). Checks that each image loads at its declared size
 * and that sampled pixels have the colours drawn, and writes screenshots to test-results/ (kept
 * out of git) for a person to look at.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBadge } from '../../src/badges/badge-svg.js';
import { renderCard, type CardSpec } from '../../src/badges/card-svg.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const OUT = path.resolve('test-results');

const profile: NonNullable<CardSpec['profile']> = {
  name: 'Ada Lovelace',
  seed: '3f2a9c1e-0000-4000-8000-000000000001',
  caption: 'AI tokens this week',
  tokens: 12_436_781n,
  rank: 3,
  ranked: 1284,
  top: { family: 'claude', percent: 72 },
  weeks: [
    0n,
    2_100_000n,
    5_400_000n,
    3_900_000n,
    0n,
    7_800_000n,
    9_200_000n,
    6_100_000n,
    11_000_000n,
    8_300_000n,
    14_900_000n,
    12_436_781n,
  ],
  accent: '#8250df',
};

let browser: Browser | undefined;
const available = fs.existsSync(CHROMIUM);

beforeAll(async () => {
  if (!available) return;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  fs.mkdirSync(OUT, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

/** Shows `svg` in an <img> on a page of `background`, screenshots it, and answers the image's natural size and some pixels. */
async function show(name: string, svg: string, background: string, samples: [number, number][]) {
  if (!browser) throw new Error('no browser');
  const page = await browser.newPage({ deviceScaleFactor: 2 });
  try {
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<body style="margin:0;padding:16px;background:${background}"><img id="i" src="${src}"></body>`,
    );
    // Runs in the page (a string: this project's TypeScript has no DOM types).
    const result = (await page.evaluate(`(async (points) => {
      const img = document.getElementById('i');
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const pixels = points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3)));
      return { width: img.naturalWidth, height: img.naturalHeight, pixels };
    })(${JSON.stringify(samples)})`)) as { width: number; height: number; pixels: number[][] };
    await page.locator('#i').screenshot({ path: path.join(OUT, `${name}.png`) });
    return result;
  } finally {
    await page.close();
  }
}

const hex = (color: string) => [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
const near = (a: number[], b: number[], tolerance = 24) =>
  a.every((v, i) => Math.abs(v - (b[i] as number)) <= tolerance);

describe.skipIf(!available)('badges and cards in Chromium', () => {
  it('the badge loads at its measured width; both halves have their colours', async () => {
    for (const [name, spec] of [
      ['badge-week', { label: 'AI tokens', value: '12.4M this week', color: '#8250df' }],
      ['badge-claude-total', { label: 'Claude tokens', value: '1.02B all time', color: '#d97757' }],
      ['badge-not-public', { label: 'AI tokens', value: 'not public', color: '#9f9f9f' }],
    ] as const) {
      const badge = renderBadge(spec);
      const shot = await show(name, badge.svg, '#ffffff', [
        [3, 10],
        [badge.width - 3, 3],
      ]);
      expect([shot.width, shot.height], name).toEqual([badge.width, 20]);
      // sampled at the edges, away from the text: the label half is #555, the value half its colour (under the gradient)
      expect(near(shot.pixels[0] as number[], hex('#555555')), `${name} label ${String(shot.pixels[0])}`).toBe(true);
      expect(near(shot.pixels[1] as number[], hex(spec.color)), `${name} value ${String(shot.pixels[1])}`).toBe(true);
    }
  });

  it('the card loads at 440 × 180 in both themes, with its avatar, strip and background', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const svg = renderCard({ theme, profile });
      const shot = await show(`card-${theme}`, svg, theme === 'light' ? '#f6f8fa' : '#010409', [
        [20, 90],
        [48, 30],
        [410, 148],
      ]);
      expect([shot.width, shot.height]).toEqual([440, 180]);
      expect(near(shot.pixels[0] as number[], hex(theme === 'light' ? '#ffffff' : '#0d1117'))).toBe(true);
      expect(near(shot.pixels[1] as number[], hex(theme === 'light' ? '#ffffff' : '#0d1117'))).toBe(false); // the avatar circle
      expect(near(shot.pixels[2] as number[], hex('#8250df'))).toBe(true); // the current week's bar
      const neutral = await show(`card-${theme}-not-public`, renderCard({ theme, profile: null }), '#f6f8fa', []);
      expect([neutral.width, neutral.height]).toEqual([440, 180]);
    }
  });
});
