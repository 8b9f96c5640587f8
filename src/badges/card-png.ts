/**
 * @fileoverview PNG renderings of the profile card for link previews (Open Graph and Twitter
 * cards: Slack, Discord and X show no SVG), drawn by resvg (`@resvg/resvg-js`) at twice the
 * card's size. Text needs a font: the DejaVu Sans files of the system when present (the card
 * names it among its fonts), else whatever system fonts resvg finds.
 */
import { existsSync } from 'node:fs';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';

/** The PNG is the card drawn at this zoom (880 × 360 for the 440 × 180 card). */
export const PNG_SCALE = 2;

const FONT_DIRS = ['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/dejavu', '/usr/share/fonts/TTF'];
const FONT_NAMES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'];

let fontOptions: ResvgRenderOptions['font'] | undefined;

/** Known font files when found (quicker than scanning every system font on each render). */
function fonts(): ResvgRenderOptions['font'] {
  if (fontOptions) return fontOptions;
  const files = FONT_DIRS.flatMap((dir) => FONT_NAMES.map((name) => `${dir}/${name}`)).filter((f) => existsSync(f));
  fontOptions =
    files.length > 0
      ? { fontFiles: files, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' }
      : { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' };
  return fontOptions;
}

export interface Png {
  png: Buffer;
  width: number;
  height: number;
}

export function svgToPng(svg: string): Png {
  const rendered = new Resvg(svg, { fitTo: { mode: 'zoom', value: PNG_SCALE }, font: fonts() }).render();
  return { png: rendered.asPng(), width: rendered.width, height: rendered.height };
}
