/**
 * @fileoverview Outgoing mail behind one small interface: `Mailer.send` a message of a plain-text and
 * an HTML part. `smtpMailer` sends through SMTP_URL with nodemailer (`smtps://` is TLS from the
 * first byte; `smtp://` upgrades with STARTTLS when the server offers it). Its failures are reported
 * by `describeMailError` without the URL's credentials.
 */
import nodemailer from 'nodemailer';

export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailSettings {
  /** `smtp://` or `smtps://`, with `user:pass@` when the server asks for a login. */
  readonly smtpUrl: string;
  /** The sender, e.g. `Tokentally <tokentally@example.com>`. */
  readonly from: string;
}

/** How long one SMTP conversation may take at each step before the send fails. */
const SMTP_TIMEOUT_MS = 30_000;

/** A mailer that sends through the SMTP server of `settings`, one pooled connection at a time. */
export function smtpMailer(settings: MailSettings): Mailer {
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    pool: true,
    maxConnections: 1,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    logger: false,
    debug: false,
  });
  return {
    async send(message) {
      await transport.sendMail({ from: settings.from, ...message });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * A failed send as one line for the log: the error's code and message, with the SMTP URL's user
 * name and password (as written and as sent in an AUTH command) taken out.
 */
export function describeMailError(error: unknown, smtpUrl: string): string {
  const e = error as { code?: unknown; responseCode?: unknown; message?: unknown } | null;
  let text = `${typeof e?.message === 'string' ? e.message : String(error)}`;
  const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : undefined;
  const user = url ? decodeURIComponent(url.username) : '';
  const pass = url ? decodeURIComponent(url.password) : '';
  const secrets = [smtpUrl, pass, Buffer.from(`\u0000${user}\u0000${pass}`).toString('base64')];
  for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join('[redacted]');
  const code = typeof e?.code === 'string' ? `${e.code}` : 'error';
  const reply = typeof e?.responseCode === 'number' ? ` ${e.responseCode}` : '';
  return `${code}${reply}: ${text.replace(/\s+/g, ' ').slice(0, 300)}`;
}
