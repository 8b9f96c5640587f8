/**
 * @fileoverview The team invite e-mail: a plain-text and a simple HTML part naming the team and
 * the server, with the invite link, its expiry, and what joining shares (docs/teams.md).
 */
import type { MailMessage } from './mailer.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** What joining a team shares, as the invite page and the e-mail say it. */
export const JOINING_SHARES =
  "The team's members see the team's totals and its leaderboard, with display names. Its owners and admins also see each member's usage by day, model, source and project, over the member's whole history. Nothing else is shared, and leaving stops it at once.";

export function teamInviteMessage(input: {
  to: string;
  team: string;
  link: string;
  server: string;
  expiresAt: Date;
}): MailMessage {
  const { to, team, link, server, expiresAt } = input;
  const expiry = expiresAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const text = [
    'Hello,',
    '',
    `You are invited to join the team "${team}" on the Tokentally server ${server}.`,
    '',
    'To join, sign in and open this link:',
    '',
    link,
    '',
    `The link expires on ${expiry}.`,
    '',
    JOINING_SHARES,
    '',
    'If you do not want to join, you can ignore this e-mail.',
    '',
    '-- Tokentally',
    '',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1f2328">
<p>Hello,</p>
<p>You are invited to join the team <strong>${escapeHtml(team)}</strong> on the Tokentally server ${escapeHtml(server)}.</p>
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 16px; background: #4f46e5; color: #fff; border-radius: 6px; text-decoration: none">See the invite</a></p>
<p style="font-size: 13px; color: #57606a">Or copy this address into your browser: ${escapeHtml(link)}</p>
<p>The link expires on ${escapeHtml(expiry)}.</p>
<p>${escapeHtml(JOINING_SHARES)}</p>
<p>If you do not want to join, you can ignore this e-mail.</p>
</body></html>
`;
  return { to, subject: `Join the team ${team} on Tokentally`, text, html };
}
