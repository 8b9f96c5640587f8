/**
 * @fileoverview Who may sign up (docs/running-for-a-group.md): the sign-up modes, the list of
 * e-mail domains and the invite token's shape. Pure rules; the stored settings and invites are
 * read by services/signup-policy.ts.
 */

export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** Most domains the list may hold, and the longest domain (DNS's limit). */
export const MAX_SIGNUP_DOMAINS = 100;
export const MAX_DOMAIN_LENGTH = 253;

/** Invite tokens: a readable prefix and 256 random bits (base64url, 43 characters). */
export const INVITE_TOKEN_PREFIX = 'tt_inv_';
const INVITE_TOKEN = /^tt_inv_[A-Za-z0-9_-]{43}$/;

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function isSignupMode(value: string): value is SignupMode {
  return (SIGNUP_MODES as readonly string[]).includes(value);
}

export function isInviteToken(value: string): boolean {
  return INVITE_TOKEN.test(value);
}

/**
 * Normalises a list of domains (lower case, a leading `@` dropped, duplicates removed, in order);
 * `{ bad }` names the first entry that is not a domain name.
 */
export function normalizeDomains(entries: readonly string[]): { domains: string[] } | { bad: string } {
  const domains: string[] = [];
  for (const entry of entries) {
    const domain = entry.trim().toLowerCase().replace(/^@/, '');
    if (domain === '') continue;
    if (!DOMAIN.test(domain)) return { bad: entry };
    if (!domains.includes(domain)) domains.push(domain);
  }
  return { domains };
}

/** A comma-separated list (SIGNUP_EMAIL_DOMAINS, the stored setting) as entries. */
export function splitDomains(text: string): string[] {
  return text.split(',');
}

/** Whether an e-mail address (already lower case) is inside the list: its domain is one of them exactly. Empty list: any. */
export function emailDomainAllowed(email: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  const at = email.lastIndexOf('@');
  return at >= 0 && domains.includes(email.slice(at + 1));
}

/** Why a sign-up without a valid invite is refused under a policy, or undefined when it may go on. */
export function refusalWithoutInvite(
  mode: SignupMode,
  domains: readonly string[],
  email: string,
): 'signup_disabled' | 'email_address_not_authorized' | undefined {
  if (mode !== 'open') return 'signup_disabled';
  return emailDomainAllowed(email, domains) ? undefined : 'email_address_not_authorized';
}
