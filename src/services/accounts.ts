/**
 * @fileoverview Accounts and sessions behind the GoTrue-compatible sign-in API: sign-up, password
 * sign-in, rotating single-use refresh tokens (a reused one revokes its whole session, except
 * within a short reuse window, as GoTrue does), profile and password updates (a password change
 * needs the current password or a recent sign-in: reauthentication.ts) and sign-out.
 */
import { randomUUID } from 'node:crypto';
import { createPasswordAccount } from './account-creation.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { deleteUserRecoveryTokens } from '../db/queries/recovery-tokens.js';
import { inTransaction } from '../db/transaction.js';
import {
  consumeRefreshToken,
  findRefreshToken,
  findUserByEmail,
  findUserByExternalId,
  findUserById,
  insertRefreshToken,
  insertUser,
  revokeOtherSessions,
  revokeSession,
  revokeUserSessions,
  updatePasswordHash,
  updateUserProfile,
} from '../db/queries/users.js';
import type { UserRow } from '../db/schema.js';
import type { InvalidInput } from '../domain/errors.js';
import { NotFound, Refused } from '../domain/errors.js';
import type { JwtService } from '../security/jwt.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../security/passwords.js';
import { generateToken, hashToken, hmac } from '../security/tokens.js';
import {
  banned,
  checkEmailAndPassword,
  checkProfile,
  EMAIL,
  invalid,
  MIN_PASSWORD_LENGTH,
  toPublicUser,
  type ProfileInput,
  type PublicUser,
  type Session,
  type UserUpdate,
} from './account-shapes.js';
import { requireReauthentication } from './reauthentication.js';

export type { ProfileInput, PublicUser, Session, UserUpdate } from './account-shapes.js';
export { checkProfile, toPublicUser } from './account-shapes.js';

const REFRESH_PREFIX = 'tt_rt_';
/**
 * A refresh token presented again this soon after its first use is a concurrent refresh (two tabs,
 * a retried request), not theft: it gets the same new session (GoTrue's default reuse interval).
 */
export const REFRESH_REUSE_WINDOW_MS = 10_000;

export interface AccountOptions {
  scryptCost: number;
  refreshTokenTtlMs: number;
  /**
   * Derives a rotated refresh token from its parent, so the same child can be answered again within
   * the reuse window although only hashes are stored (a server key: see app.ts).
   */
  refreshKey: string;
  /** Told when sessions end here, so cached "session live" answers are dropped at once. */
  onSessionsEnded?: () => void;
  /** Who may sign up: the invite to use, or a refusal (SignupPolicy.admit). */
  admit: (email: string, inviteToken: string | undefined) => Promise<{ inviteId: string | undefined }>;
}

type RefreshOutcome =
  | { readonly ok: true; readonly userId: string; readonly sessionId: string }
  | { readonly ok: false; readonly error: InvalidInput; readonly ended?: boolean };

export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly jwt: JwtService,
    private readonly options: AccountOptions,
  ) {}

  /**
   * GoTrue's sign-up: checked against who may sign up (the invite, if any, comes as
   * `data.invite_token` and is never stored with the profile), then created; the first account of
   * an instance becomes its admin.
   */
  async signUp(emailInput: string, password: string, profile: ProfileInput & { invite_token?: string }) {
    const email = checkEmailAndPassword(emailInput, password);
    const checked = checkProfile(profile);
    const { inviteId } = await this.options.admit(email, profile.invite_token);
    const passwordHash = await hashPassword(password, this.options.scryptCost);
    const id = await createPasswordAccount(this.db, this.clock.now(), {
      email,
      passwordHash,
      profile: checked,
      inviteId,
    });
    return this.startSession(await this.mustFindUser(id), randomUUID());
  }

  /** An account the operator creates (GoTrue's `POST /admin/users`): no sign-up policy applies. */
  async createUser(emailInput: string, password: string, profile: ProfileInput, admin: boolean): Promise<PublicUser> {
    const email = checkEmailAndPassword(emailInput, password);
    const checked = checkProfile(profile);
    const passwordHash = await hashPassword(password, this.options.scryptCost);
    const id = await createPasswordAccount(this.db, this.clock.now(), { email, passwordHash, profile: checked, admin });
    return this.getUser(id);
  }

  async signInWithPassword(emailInput: string, password: string): Promise<Session> {
    const email = emailInput.trim().toLowerCase();
    const user = await findUserByEmail(this.db.kysely, email);
    if (!user?.password_hash) {
      await burnPasswordCheck(password, this.options.scryptCost);
      throw invalid('invalid_credentials', 'Invalid login credentials.');
    }
    if (!(await verifyPassword(password, user.password_hash)))
      throw invalid('invalid_credentials', 'Invalid login credentials.');
    if (user.disabled_at !== null) throw banned();
    return this.startSession(user, randomUUID());
  }

  /**
   * Rotates a refresh token: each works once; presenting a used one revokes the session, unless it
   * comes within REFRESH_REUSE_WINDOW_MS of its first use while its successor is unused: then the
   * answer is that same successor (with a fresh access token).
   */
  async refresh(refreshToken: string): Promise<Session> {
    const now = this.clock.now();
    const hash = hashToken(refreshToken);
    const child = REFRESH_PREFIX + hmac(this.options.refreshKey, 'rotated-refresh-token', refreshToken);
    const childHash = hashToken(child);
    // One transaction: a concurrent refresh of the same token waits for this one and then finds its child.
    const outcome = await inTransaction(this.db, async (tx): Promise<RefreshOutcome> => {
      const row = await findRefreshToken(tx, hash);
      if (!row) return { ok: false, error: invalid('refresh_token_not_found', 'Invalid refresh token: not found.') };
      if (row.revoked_at !== null)
        return { ok: false, error: invalid('session_not_found', 'Invalid refresh token: the session has ended.') };
      if (Number(row.expires_at) <= now)
        return { ok: false, error: invalid('session_expired', 'Invalid refresh token: expired.') };
      const session = { ok: true, userId: row.user_id, sessionId: row.session_id } as const;
      if (row.used_at === null && (await consumeRefreshToken(tx, hash, now))) {
        await insertRefreshToken(tx, {
          token_hash: childHash,
          user_id: row.user_id,
          session_id: row.session_id,
          created_at: now,
          expires_at: now + this.options.refreshTokenTtlMs,
          // The session's sign-in instant, not this refresh: a refresh never makes a session fresh.
          authenticated_at: row.authenticated_at,
        });
        return session;
      }
      const usedAt = Number((await findRefreshToken(tx, hash))?.used_at ?? 0);
      const successor = await findRefreshToken(tx, childHash);
      if (now - usedAt <= REFRESH_REUSE_WINDOW_MS && successor?.used_at === null && successor.revoked_at === null)
        return session;
      await revokeSession(tx, row.session_id, now);
      return {
        ok: false,
        ended: true,
        error: invalid(
          'refresh_token_already_used',
          'Invalid refresh token: already used. The session has been ended.',
        ),
      };
    });
    if (!outcome.ok) {
      if (outcome.ended) this.options.onSessionsEnded?.();
      throw outcome.error;
    }
    const user = await this.mustFindUser(outcome.userId);
    if (user.disabled_at !== null) throw banned();
    return this.sessionFor(user, outcome.sessionId, child);
  }

  /**
   * GoTrue's `PUT /user`: the profile (`data`) and the password. Everything is checked before
   * anything is written, so a refused request changes nothing. A new password needs the current one
   * (`current_password`) unless this session signed in recently (services/reauthentication.ts); it
   * ends every other session of the user, the caller's own goes on. A too-short password is refused
   * (`weak_password`), and so is the current one again (`same_password`): GoTrue answers both 422.
   * The e-mail address cannot be changed here (it is the sign-in name and no mail confirms a new
   * one): a different `email` is refused, the same one ignored.
   */
  async updateUser(userId: string, sessionId: string | undefined, update: UserUpdate): Promise<PublicUser> {
    const user = await this.mustFindUser(userId);
    const profile = checkProfile(update.data ?? {});
    const email = update.email?.trim().toLowerCase();
    if (email && email !== user.email)
      throw new Refused('The e-mail address cannot be changed; nothing was changed.', { reason: 'validation_failed' });
    if (update.password !== undefined)
      await this.changePassword(user, sessionId, update.password, update.currentPassword);
    if (Object.keys(profile).length > 0) await updateUserProfile(this.db.kysely, userId, profile, this.clock.now());
    return this.getUser(userId);
  }

  private async changePassword(
    user: UserRow,
    sessionId: string | undefined,
    password: string,
    currentPassword: string | undefined,
  ): Promise<void> {
    if (user.email === null || user.password_hash === null)
      throw new Refused('This account signs in with an external provider; it has no password here.', {
        reason: 'validation_failed',
      });
    if (password.length < MIN_PASSWORD_LENGTH)
      throw new Refused('The password must be at least 8 characters long.', { reason: 'weak_password' });
    await requireReauthentication(this.db, this.clock, user, sessionId, currentPassword);
    if (await verifyPassword(password, user.password_hash)) {
      throw new Refused('The new password must be different from the current one.', { reason: 'same_password' });
    }
    const now = this.clock.now();
    const passwordHash = await hashPassword(password, this.options.scryptCost);
    await inTransaction(this.db, async (tx) => {
      await updatePasswordHash(tx, user.id, passwordHash, now);
      await revokeOtherSessions(tx, user.id, sessionId, now);
      await deleteUserRecoveryTokens(tx, user.id);
    });
    this.options.onSessionsEnded?.();
  }

  /** Signs in through a recovery link (services/recovery.ts): every other session ends; the new one is fresh. */
  async signInByRecovery(userId: string): Promise<Session> {
    const user = await this.mustFindUser(userId);
    if (user.disabled_at !== null) throw banned();
    await revokeUserSessions(this.db.kysely, userId, this.clock.now());
    this.options.onSessionsEnded?.();
    return this.startSession(user, randomUUID());
  }

  async getUser(userId: string): Promise<PublicUser> {
    return toPublicUser(await this.mustFindUser(userId));
  }

  async signOut(userId: string, sessionId: string | undefined, scope: 'global' | 'local' | 'others'): Promise<void> {
    const now = this.clock.now();
    if (scope === 'local' && sessionId) await revokeSession(this.db.kysely, sessionId, now);
    else if (scope === 'others') await revokeOtherSessions(this.db.kysely, userId, sessionId, now);
    else await revokeUserSessions(this.db.kysely, userId, now);
    this.options.onSessionsEnded?.();
  }

  /** The local user for an external OpenID Connect subject, created on first sight. */
  async userForExternalSubject(issuer: string, sub: string, email: string | undefined): Promise<string> {
    const externalId = `${issuer}|${sub}`;
    const found = await findUserByExternalId(this.db.kysely, externalId);
    if (found) return found.id;
    const now = this.clock.now();
    const id = randomUUID();
    try {
      await insertUser(this.db.kysely, {
        id,
        email: null,
        password_hash: null,
        display_name: null,
        avatar_url: null,
        external_id: externalId,
        created_at: now,
        updated_at: now,
      });
      void email; // an external e-mail is not trusted as a login identity
      return id;
    } catch (error) {
      const raced = await findUserByExternalId(this.db.kysely, externalId);
      if (raced) return raced.id;
      throw error;
    }
  }

  /**
   * Creates the account of someone signing in with single sign-on for the first time (services/sso.ts):
   * a verified e-mail address, no password (an SSO-only account). The one place a single sign-on
   * creates an account: the sign-up rules apply as in {@link signUp} (closed and invite mode refuse
   * it, the domain list applies), and the first account of an instance is its admin. A refusal
   * reaches the user as the callback's error redirect.
   */
  async createExternalUser(emailInput: string, profile: ProfileInput): Promise<UserRow> {
    const email = emailInput.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254)
      throw invalid('email_address_invalid', 'The provider gave no valid e-mail address.');
    const checked = checkProfile(profile);
    // The sign-up rules of a password sign-up, without an invite (a provider's sign-in carries none).
    await this.options.admit(email, undefined);
    const id = await createPasswordAccount(this.db, this.clock.now(), { email, passwordHash: null, profile: checked });
    return this.mustFindUser(id);
  }

  /** A new session for a user who signed in elsewhere (single sign-on) at `authenticatedAt`. */
  async startSignedInSession(userId: string, authenticatedAt: number): Promise<Session> {
    const user = await this.mustFindUser(userId);
    if (user.disabled_at !== null) throw banned();
    return this.startSession(user, randomUUID(), authenticatedAt);
  }

  private async mustFindUser(id: string): Promise<UserRow> {
    const user = await findUserById(this.db.kysely, id);
    if (!user) throw new NotFound('The user no longer exists.', { reason: 'user_not_found' });
    return user;
  }

  /** A new session: a fresh refresh token stored, and its first access token. */
  private async startSession(user: UserRow, sessionId: string, authenticatedAt?: number): Promise<Session> {
    const now = this.clock.now();
    const refreshToken = generateToken(REFRESH_PREFIX);
    await insertRefreshToken(this.db.kysely, {
      token_hash: hashToken(refreshToken),
      user_id: user.id,
      session_id: sessionId,
      created_at: now,
      expires_at: now + this.options.refreshTokenTtlMs,
      authenticated_at: authenticatedAt ?? now,
    });
    return this.sessionFor(user, sessionId, refreshToken);
  }

  /** The session answer for a stored refresh token, with a new access token. */
  private async sessionFor(user: UserRow, sessionId: string, refreshToken: string): Promise<Session> {
    const { token, expiresAt } = await this.jwt.sign({ sub: user.id, email: user.email, sessionId }, this.clock.now());
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: this.jwt.accessTokenTtlSeconds,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: toPublicUser(user),
    };
  }
}
