/**
 * @fileoverview The rules of public profile pages (docs/sharing.md, "The public profile"): what
 * a handle may be, and the fields a user can make public one by one.
 */

/** The fields of a public profile page, each shown only when its owner switched it on. */
export const PROFILE_FIELDS = ['heatmap', 'totals', 'cost', 'models', 'sources', 'streaks', 'ranks'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileFields = Record<ProfileField, boolean>;

/**
 * Public until switched off: the figures the leaderboard already shows of a public user (tokens
 * and ranks). Everything else (daily activity, cost, models, tools) waits for its owner's switch.
 */
export const DEFAULT_PUBLIC_FIELDS: readonly ProfileField[] = ['totals', 'ranks'];

export function fieldsFromText(text: string | undefined): ProfileFields {
  const on = new Set(text === undefined ? DEFAULT_PUBLIC_FIELDS : text.split(','));
  return Object.fromEntries(PROFILE_FIELDS.map((f) => [f, on.has(f)])) as ProfileFields;
}

export function fieldsToText(fields: ProfileFields): string {
  return PROFILE_FIELDS.filter((f) => fields[f]).join(',');
}

export const HANDLE_MIN = 3;
export const HANDLE_MAX = 30;
/** Lowercase letters, digits and single hyphens inside (not first or last, not two in a row). */
const HANDLE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Words that name the server's own pages or would pass for its staff. */
const RESERVED = new Set([
  'about',
  'account',
  'admin',
  'administrator',
  'anonymous',
  'api',
  'assets',
  'auth',
  'badge',
  'badges',
  'card',
  'cards',
  'cli',
  'dashboard',
  'devices',
  'docs',
  'edit',
  'everyone',
  'forgot-password',
  'functions',
  'healthz',
  'help',
  'leaderboard',
  'link',
  'login',
  'logout',
  'me',
  'metrics',
  'mod',
  'moderator',
  'new',
  'null',
  'official',
  'owner',
  'profile',
  'public',
  'root',
  'security',
  'settings',
  'share',
  'sign-in',
  'sign-out',
  'sign-up',
  'signin',
  'signup',
  'staff',
  'support',
  'system',
  'team',
  'tokentally',
  'u',
  'undefined',
  'user',
  'users',
  'www',
]);

/** Why this (already lower-cased, trimmed) handle is refused, or undefined when it is fine. */
export function handleFault(handle: string): string | undefined {
  if (handle.length < HANDLE_MIN || handle.length > HANDLE_MAX)
    return `must be ${HANDLE_MIN} to ${HANDLE_MAX} characters long`;
  if (!HANDLE.test(handle)) return 'may use only lowercase letters, digits and single hyphens between them';
  if (RESERVED.has(handle)) return 'is reserved; choose another';
  return undefined;
}

/** A handle as the user typed it, as stored and compared: trimmed and lower-cased. */
export function normalizeHandle(text: string): string {
  return text.trim().toLowerCase();
}
