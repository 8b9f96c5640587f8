/**
 * @fileoverview The privacy rules of everything shown publicly (share page, leaderboard): a name
 * that looks like an e-mail address is never shown, avatars only as http(s) URLs.
 */

const EMAIL_LIKE = /[^\s@]+@[^\s@]+/;

/** The display name safe to show publicly, or null (empty, or e-mail-like anywhere in it). */
export function publicDisplayName(name: string | null | undefined): string | null {
  const trimmed = name?.trim() ?? '';
  if (trimmed === '' || EMAIL_LIKE.test(trimmed)) return null;
  return trimmed.slice(0, 128);
}

/** The avatar URL safe to show publicly: an absolute http(s) URL of at most 1024 characters, else null. */
export function publicAvatarUrl(url: string | null | undefined): string | null {
  const trimmed = url?.trim() ?? '';
  if (trimmed === '' || trimmed.length > 1024) return null;
  try {
    const parsed = new URL(trimmed);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? trimmed : null;
  } catch {
    return null;
  }
}
