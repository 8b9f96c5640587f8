/**
 * @fileoverview The password recovery e-mail: a plain-text and a simple HTML part that name the
 * product and the server, carry the link, say it works once and expires in an hour, and that the
 * mail can be ignored.
 */
import type { MailMessage } from './mailer.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function recoveryMessage(input: { to: string; link: string; server: string; ttlMinutes: number }): MailMessage {
  const { to, link, server, ttlMinutes } = input;
  const expiry = ttlMinutes === 60 ? 'an hour' : `${ttlMinutes} minutes`;
  const text = [
    'Hello,',
    '',
    `Someone asked to reset the password of the Tokentally account for ${to} at ${server}.`,
    '',
    'To choose a new password, open this link:',
    '',
    link,
    '',
    `The link works once and expires in ${expiry}. Opening it signs out your other sessions.`,
    '',
    'If you did not ask for this, you can ignore this e-mail: your password stays as it is.',
    '',
    '-- Tokentally',
    '',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1f2328">
<p>Hello,</p>
<p>Someone asked to reset the password of the Tokentally account for <strong>${escapeHtml(to)}</strong> at ${escapeHtml(server)}.</p>
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 16px; background: #4f46e5; color: #fff; border-radius: 6px; text-decoration: none">Choose a new password</a></p>
<p style="font-size: 13px; color: #57606a">Or copy this address into your browser: ${escapeHtml(link)}</p>
<p>The link works once and expires in ${expiry}. Opening it signs out your other sessions.</p>
<p>If you did not ask for this, you can ignore this e-mail: your password stays as it is.</p>
<p>&mdash; Tokentally</p>
</body></html>
`;
  return { to, subject: 'Reset your Tokentally password', text, html };
}
