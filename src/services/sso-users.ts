/**
 * @fileoverview Who signed in with single sign-on. In order: the user a provider's subject is
 * already linked to (user_identities); else the account of the same e-mail address, ONLY when the
 * provider vouches for it (`email_verified` in the ID token, GitHub's verified primary address);
 * else a new SSO-only account (AccountService.createExternalUser, where the sign-up rules apply).
 * An unverified address never matches, nor creates, an account: whoever controls a provider
 * account with someone else's unverified address must not reach, or squat, theirs. The link is
 * stored so later sign-ins match by subject, whatever the address is then.
 *
 * Unlike AccountService.userForExternalSubject (external bearer tokens, matched by `issuer|sub` on
 * the user row and never by e-mail), the link lives in its own table: one user may sign in with
 * several providers and a password.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { findIdentityUser, linkIdentity } from '../db/queries/sso.js';
import { findUserByEmail, userIdExists } from '../db/queries/users.js';
import { Refused } from '../domain/errors.js';
import type { AccountService } from './accounts.js';
import type { ExternalProfile } from './sso-providers.js';

/** An avatar a profile may keep: https, not too long (anything else is dropped, not refused). */
function avatarOf(url: string | undefined): string | undefined {
  return url !== undefined && url.startsWith('https://') && url.length <= 500 ? url : undefined;
}

/** The user id for this sign-in; a Refused error (GoTrue's word as its reason) when there is none. */
export async function userForSignIn(
  db: Db,
  clock: Clock,
  accounts: AccountService,
  provider: string,
  profile: ExternalProfile,
): Promise<string> {
  const identity = { provider, subject: profile.subject, email: profile.email ?? null };
  const linked = await findIdentityUser(db.kysely, provider, profile.subject);
  if (linked !== undefined && (await userIdExists(db.kysely, linked))) {
    await linkIdentity(db.kysely, { ...identity, user_id: linked }, clock.now());
    return linked;
  }
  if (profile.email === undefined)
    throw new Refused('The provider did not give an e-mail address; this server needs one to sign you in.', {
      reason: 'provider_email_needs_verification',
    });
  if (!profile.emailVerified)
    throw new Refused(
      'The provider has not verified your e-mail address, so it cannot sign you in here. Verify it at the provider and try again.',
      { reason: 'provider_email_needs_verification' },
    );
  const existing = await findUserByEmail(db.kysely, profile.email);
  let userId = existing?.id;
  if (userId === undefined) {
    try {
      userId = (
        await accounts.createExternalUser(profile.email, {
          display_name: profile.displayName?.slice(0, 100),
          avatar_url: avatarOf(profile.avatarUrl),
        })
      ).id;
    } catch (error) {
      // Two first sign-ins at once: the other one created the account.
      const raced = await findUserByEmail(db.kysely, profile.email);
      if (raced === undefined) throw error;
      userId = raced.id;
    }
  }
  await linkIdentity(db.kysely, { ...identity, user_id: userId }, clock.now());
  return userId;
}
