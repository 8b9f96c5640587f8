/**
 * @fileoverview Password recovery, GoTrue's flow: `POST /recover` mails a link to
 * `GET /verify?type=recovery&token=…`, which signs the user in to a new session (fresh, so it may set
 * a new password without the current one: reauthentication.ts), ends every other session and sends
 * the browser to the dashboard with the session in the URL fragment.
 *
 * A link's token is 256 random bits, stored as its SHA-256 only, works once and expires after
 * RECOVERY_TTL_MS; a user has one live link at a time. Links start with PUBLIC_URL, and the
 * dashboard address a link returns to must be on PUBLIC_URL's origin (else the dashboard's root):
 * no open redirect. `requestMail` answers nothing about the address: the lookup and the send happen
 * after the request has been answered, the same for every address (tests await `idle()`).
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { consumeRecoveryToken, replaceRecoveryToken } from '../db/queries/recovery-tokens.js';
import { findUserByEmail, findUserById } from '../db/queries/users.js';
import { InvalidInput, NotFound, Refused } from '../domain/errors.js';
import type { Mailer } from '../mail/mailer.js';
import { recoveryMessage } from '../mail/recovery-message.js';
import { generateToken, hashToken } from '../security/tokens.js';
import type { AccountService } from './accounts.js';

/** How long a recovery link works. */
export const RECOVERY_TTL_MS = 60 * 60_000;
const TOKEN_PREFIX = 'tt_rec_';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface RecoveryLink {
  url: string;
  /** ISO 8601. */
  expires_at: string;
}

export interface RecoveryOptions {
  /** PUBLIC_URL: where links point and the only origin a link may return the browser to. */
  publicUrl: string;
  /** Undefined when SMTP_URL is not set: nothing is mailed (an admin makes links). */
  mailer: Mailer | undefined;
  /** A mail that could not be sent (its link is never part of the error). */
  onMailError: (error: unknown) => void;
}

export class RecoveryService {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly accounts: AccountService,
    private readonly options: RecoveryOptions,
  ) {}

  /** Whether recovery links are mailed (SMTP configured). */
  get mailEnabled(): boolean {
    return this.options.mailer !== undefined;
  }

  /** The address as accounts store it (trimmed, lower-case), or GoTrue's refusal of a malformed one. */
  address(input: string): string {
    const email = input.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254)
      throw new InvalidInput([{ at: { in: 'body', field: 'email' }, message: 'is not a valid e-mail address' }], {
        detail: 'Unable to validate email address: invalid format.',
        reason: 'validation_failed',
      });
    return email;
  }

  /**
   * Mails a recovery link to the account with this address, if there is one with a password, after
   * the caller has been answered: the answer and its timing are the same for every address.
   */
  requestMail(email: string, redirectTo: string | undefined): void {
    const mailer = this.options.mailer;
    if (mailer === undefined) return;
    const job = this.mailLink(mailer, email, redirectTo).catch((error: unknown) => this.options.onMailError(error));
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  /** Resolves once every mail requested so far has been sent or has failed. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Waits for the mails under way (the app is closing; the mailer is the app's to close). */
  async close(): Promise<void> {
    await this.idle();
  }

  /** A new recovery link for the user (replacing an older one), e.g. for an admin to hand over. */
  async createRecoveryLink(userId: string, redirectTo?: string): Promise<RecoveryLink> {
    const user = await findUserById(this.db.kysely, userId);
    if (!user) throw new NotFound('The user no longer exists.', { reason: 'user_not_found' });
    if (user.password_hash === null)
      throw new Refused('This account signs in with an external provider; it has no password here.', {
        reason: 'validation_failed',
      });
    const token = generateToken(TOKEN_PREFIX);
    const now = this.clock.now();
    const expiresAt = now + RECOVERY_TTL_MS;
    await replaceRecoveryToken(this.db.kysely, {
      token_hash: hashToken(token),
      user_id: user.id,
      created_at: now,
      expires_at: expiresAt,
    });
    const url = new URL(`${this.options.publicUrl}/auth/v1/verify`);
    url.searchParams.set('token', token);
    url.searchParams.set('type', 'recovery');
    if (redirectTo !== undefined && this.ownAddress(redirectTo) !== undefined)
      url.searchParams.set('redirect_to', redirectTo);
    return { url: url.toString(), expires_at: new Date(expiresAt).toISOString() };
  }

  /**
   * Follows a recovery link: where to send the browser. A working token gives a new session (every
   * other session of the user ends) in the fragment, as GoTrue does; a used, expired or unknown one
   * gives GoTrue's `otp_expired` error there instead.
   */
  async verify(token: string, redirectTo: string | undefined): Promise<string> {
    const target = this.ownAddress(redirectTo) ?? `${this.options.publicUrl}/`;
    const userId = await consumeRecoveryToken(this.db.kysely, hashToken(token), this.clock.now());
    if (userId === undefined) {
      const error = new URLSearchParams({
        error: 'access_denied',
        error_code: 'otp_expired',
        error_description: 'Email link is invalid or has expired',
      });
      return `${target}#${error.toString()}`;
    }
    const session = await this.accounts.signInByRecovery(userId);
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type: 'recovery',
    });
    return `${target}#${fragment.toString()}`;
  }

  /** `raw` without its fragment when it is an address of this server (PUBLIC_URL's origin and path), else undefined. */
  private ownAddress(raw: string | undefined): string | undefined {
    if (raw === undefined || !URL.canParse(raw)) return undefined;
    const url = new URL(raw);
    const base = new URL(`${this.options.publicUrl}/`);
    if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return undefined;
    if (url.username !== '' || url.password !== '') return undefined;
    return `${url.origin}${url.pathname}${url.search}`;
  }

  private async mailLink(mailer: Mailer, email: string, redirectTo: string | undefined): Promise<void> {
    const user = await findUserByEmail(this.db.kysely, email);
    if (!user?.email || user.password_hash === null) return;
    const { url } = await this.createRecoveryLink(user.id, redirectTo);
    const server = new URL(this.options.publicUrl).host;
    await mailer.send(recoveryMessage({ to: user.email, link: url, server, ttlMinutes: RECOVERY_TTL_MS / 60_000 }));
  }
}
