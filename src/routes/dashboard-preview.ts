/**
 * @fileoverview Link previews of public profile pages (docs/sharing.md, "Link previews"): chat
 * apps and social sites read a page's Open Graph and Twitter card tags and run no JavaScript, so
 * the server writes them into the dashboard's HTML of `/u/<handle|user_id>` while that profile is
 * public. Every value is escaped; the image is the profile card as PNG.
 */
import { CARD_PNG_SIZE } from '../services/badges.js';
import type { ProfilePreview } from '../services/profile-page.js';

/** Text safe inside an HTML element or a double- or single-quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The `<head>` tags of a public profile page: title, description, canonical address, OG and Twitter. */
export function previewTags(p: ProfilePreview, publicUrl: string): string {
  const url = `${publicUrl}/u/${encodeURIComponent(p.handle ?? p.userId)}`;
  const title = `${p.name} · Tokentally`;
  const image = `${publicUrl}/card/${p.userId}.png?period=total`;
  const alt = `${p.name}'s Tokentally card: AI tokens all time, rank and the last 12 weeks`;
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', p.description),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta('property', 'og:type', 'profile'),
    meta('property', 'og:site_name', 'Tokentally'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', p.description),
    meta('property', 'og:url', url),
    meta('name', 'twitter:card', p.cardImage ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', p.description),
  ];
  if (p.cardImage)
    tags.push(
      meta('property', 'og:image', image),
      meta('property', 'og:image:type', 'image/png'),
      meta('property', 'og:image:width', String(CARD_PNG_SIZE.width)),
      meta('property', 'og:image:height', String(CARD_PNG_SIZE.height)),
      meta('property', 'og:image:alt', alt),
      meta('name', 'twitter:image', image),
      meta('name', 'twitter:image:alt', alt),
    );
  else if (p.avatarUrl)
    tags.push(meta('property', 'og:image', p.avatarUrl), meta('name', 'twitter:image', p.avatarUrl));
  return tags.join('\n    ');
}

/** index.html with its `<title>` replaced by the preview's tags. */
export function withPreview(indexHtml: string, tags: string): string {
  const at = indexHtml.search(/<title>[^<]*<\/title>/);
  if (at < 0) return indexHtml.replace('</head>', `  ${tags}\n  </head>`);
  const end = indexHtml.indexOf('</title>', at) + '</title>'.length;
  return indexHtml.slice(0, at) + tags + indexHtml.slice(end);
}
