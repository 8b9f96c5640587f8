/**
 * @fileoverview Who may change a credential with only an access token: the session's own sign-in
 * must be recent (RECENT_SIGN_IN_MS), or the request carries the current password. An access token
 * alone — copied from a browser, a log, a proxy — then cannot take the account over by setting a
 * password of its own (which would also delete the account: deleteAccount asks for the password).
 *
 * "Recent" is a property of the session, not of the token: the instant its owner signed in
 * (password sign-in or sign-up) is stored with its refresh tokens (`authenticated_at`, migration
 * 0015) and carried over to every rotated token, so refreshing keeps a session alive but never
 * makes it fresh. The refusals use GoTrue's words (`current_password_required`,
 * `current_password_invalid`, both 400, as GoTrue answers with
 * GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD).
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { sessionAuthenticatedAt } from '../db/queries/users.js';
import type { UserRow } from '../db/schema.js';
import { InvalidInput } from '../domain/errors.js';
import { verifyPassword } from '../security/passwords.js';

/** How long after signing in a session may change the password without the current one. */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

const CURRENT_PASSWORD = { in: 'body', field: 'current_password' } as const;

/** True when the session signed in less than RECENT_SIGN_IN_MS ago (a session-less token never is). */
export async function signedInRecently(db: Db, clock: Clock, sessionId: string | undefined): Promise<boolean> {
  if (sessionId === undefined) return false;
  const at = await sessionAuthenticatedAt(db.kysely, sessionId);
  return at !== undefined && clock.now() - at < RECENT_SIGN_IN_MS;
}

/**
 * Refuses a credential change unless the caller proves it is the owner: the right current password
 * (checked whenever one is given, even in a fresh session), or a session signed in recently.
 * An empty current password counts as none, as in GoTrue.
 */
export async function requireReauthentication(
  db: Db,
  clock: Clock,
  user: UserRow,
  sessionId: string | undefined,
  currentPassword: string | undefined,
): Promise<void> {
  if (currentPassword !== undefined && currentPassword !== '') {
    if (user.password_hash === null || !(await verifyPassword(currentPassword, user.password_hash))) {
      throw new InvalidInput([{ at: CURRENT_PASSWORD, message: 'is not the current password' }], {
        detail: 'The current password is not correct; nothing was changed.',
        reason: 'current_password_invalid',
      });
    }
    return;
  }
  if (await signedInRecently(db, clock, sessionId)) return;
  throw new InvalidInput([{ at: CURRENT_PASSWORD, message: 'is required' }], {
    detail:
      'Enter your current password (current_password) to change it: this session signed in more than 10 minutes ago.',
    reason: 'current_password_required',
  });
}
