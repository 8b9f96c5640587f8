/**
 * @fileoverview The outgoing mail settings (password recovery links): SMTP_URL and SMTP_FROM. Read
 * by `loadConfig` (config.ts) only, from the variables it hands over, like config-sso.ts.
 */

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
