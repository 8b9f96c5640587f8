/**
 * @fileoverview The account settings beside single sign-on: outgoing mail (password recovery
 * links: SMTP_URL, SMTP_FROM) and who may sign up (SIGNUP_MODE, SIGNUP_EMAIL_DOMAINS). Read by
 * `loadConfig` (config.ts) only, from the variables it hands over, like config-sso.ts.
 */
import { isSignupMode, normalizeDomains, splitDomains, type SignupMode } from './domain/signup-policy.js';

type Read = (name: string) => string | undefined;
type Fail = (message: string) => Error;

export interface MailConfig {
  readonly smtpUrl: string;
  readonly from: string;
}

/**
 * SMTP_URL (`smtp://` or `smtps://`, credentials in the URL) and SMTP_FROM (default
 * `Tokentally <tokentally@PUBLIC_URL's host>`). Unset SMTP_URL: no mail is sent.
 */
export function readMailConfig(read: Read, fail: Fail, publicUrl: string): MailConfig | undefined {
  const smtpUrl = read('SMTP_URL');
  const from = read('SMTP_FROM');
  if (smtpUrl === undefined) {
    if (from !== undefined) throw fail('SMTP_FROM needs SMTP_URL');
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(smtpUrl);
  } catch {
    url = undefined;
  }
  // The URL itself is never repeated in the message: it may carry the password.
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '')
    throw fail('SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:pass@mail.example.com:465');
  if (from !== undefined && (from.length > 320 || /[\r\n]/.test(from)))
    throw fail('SMTP_FROM must be one line such as "Tokentally <tokentally@example.com>"');
  return { smtpUrl, from: from ?? `Tokentally <tokentally@${new URL(publicUrl).hostname}>` };
}

/** Who may sign up, as the environment starts it (an instance admin may change it later). */
export interface SignupConfig {
  readonly mode: SignupMode;
  readonly emailDomains: readonly string[];
}

/** SIGNUP_MODE (open, invite, closed) and SIGNUP_EMAIL_DOMAINS (a comma-separated list of domains). */
export function readSignupConfig(read: Read, fail: Fail): SignupConfig {
  const mode = (read('SIGNUP_MODE') ?? 'open').trim().toLowerCase();
  if (!isSignupMode(mode)) throw fail(`SIGNUP_MODE must be open, invite or closed, got "${mode}"`);
  const domains = normalizeDomains(splitDomains(read('SIGNUP_EMAIL_DOMAINS') ?? ''));
  if ('bad' in domains)
    throw fail(`SIGNUP_EMAIL_DOMAINS must list domain names, e.g. example.com, got "${domains.bad}"`);
  return { mode, emailDomains: domains.domains };
}
