/**
 * @fileoverview Who may sign up (docs/running-for-a-group.md): the sign-up settings (stored in
 * `instance_settings` once an admin saves them; until then the environment's SIGNUP_MODE and
 * SIGNUP_EMAIL_DOMAINS), the decision on one sign-up, and the invites an admin creates, lists and
 * revokes. Invite tokens are 256 random bits, stored only as their SHA-256.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { readSettings, writeSetting } from '../db/queries/instance-settings.js';
import { findInvite, findInviteByHash, insertInvite, listInvites, revokeInvite } from '../db/queries/invites.js';
import type { InviteRow } from '../db/schema.js';
import { Forbidden, InvalidInput, invalidField, NotFound } from '../domain/errors.js';
import {
  INVITE_TOKEN_PREFIX,
  isInviteToken,
  isSignupMode,
  normalizeDomains,
  refusalWithoutInvite,
  splitDomains,
  type SignupMode,
} from '../domain/signup-policy.js';
import { generateToken, hashToken } from '../security/tokens.js';

export interface SignupSettings {
  signup_mode: SignupMode;
  signup_email_domains: string[];
}

export interface InviteView {
  id: string;
  email: string | null;
  max_uses: number;
  uses: number;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** live (usable), expired, spent (no uses left) or revoked. */
  status: 'live' | 'expired' | 'spent' | 'revoked';
}

export interface CreatedInvite {
  id: string;
  invite_token: string;
  url: string;
  expires_at: string;
}

/** The default life of an invite, and the most invites an admin's list shows. */
export const DEFAULT_INVITE_HOURS = 168;
export const MAX_LISTED_INVITES = 200;

const MODE = 'signup_mode';
const DOMAINS = 'signup_email_domains';

const iso = (ms: bigint | number) => new Date(Number(ms)).toISOString();

function inviteStatus(row: InviteRow, now: number): InviteView['status'] {
  if (row.revoked_at !== null) return 'revoked';
  if (Number(row.expires_at) <= now) return 'expired';
  return row.uses >= row.max_uses ? 'spent' : 'live';
}

/** Why an invite cannot be used now (undefined: it can). */
function inviteRefusal(row: InviteRow | undefined, email: string, now: number): string | undefined {
  if (row === undefined) return 'This invite is not known.';
  const status = inviteStatus(row, now);
  if (status !== 'live') return `This invite is ${status === 'spent' ? 'used up' : status}.`;
  if (row.email !== null && row.email !== email) return 'This invite is for another e-mail address.';
  return undefined;
}

export class SignupPolicy {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly defaults: { readonly mode: SignupMode; readonly emailDomains: readonly string[] },
    /** The dashboard's address: an invite's URL is its sign-up page with the invite filled in. */
    private readonly dashboardUrl: string,
  ) {}

  /** The settings in force: the stored ones, else the environment's. */
  async settings(): Promise<SignupSettings> {
    const stored = await readSettings(this.db.kysely, [MODE, DOMAINS]);
    const mode = stored.get(MODE);
    const domains = stored.get(DOMAINS);
    return {
      signup_mode: mode !== undefined && isSignupMode(mode) ? mode : this.defaults.mode,
      signup_email_domains:
        domains === undefined
          ? [...this.defaults.emailDomains]
          : splitDomains(domains).filter((domain) => domain !== ''),
    };
  }

  /** Saves what is given (both settings are stored from then on) and answers the settings in force. */
  async update(input: { signup_mode?: SignupMode | undefined; signup_email_domains?: string[] | undefined }) {
    let domains: string[] | undefined;
    if (input.signup_email_domains !== undefined) {
      const normalized = normalizeDomains(input.signup_email_domains);
      if ('bad' in normalized)
        throw invalidField(
          { in: 'body', field: 'signup_email_domains' },
          `"${normalized.bad}" is not a domain name (e.g. example.com)`,
        );
      domains = normalized.domains;
    }
    const current = await this.settings();
    const now = this.clock.now();
    await writeSetting(this.db.kysely, MODE, input.signup_mode ?? current.signup_mode, now);
    await writeSetting(this.db.kysely, DOMAINS, (domains ?? current.signup_email_domains).join(','), now);
    return this.settings();
  }

  /**
   * Decides a sign-up of `email` (lower case), with the invite it carries if any: the invite's id
   * to use in the sign-up's transaction, or a refusal — 403 `signup_disabled` (closed; invite mode
   * without an invite), `email_address_not_authorized` (outside the domain list, without an invite),
   * `invite_invalid` (unknown, expired, used up, revoked or for another address); 400 for a token
   * that cannot be one.
   */
  async admit(email: string, inviteToken: string | undefined): Promise<{ inviteId: string | undefined }> {
    const { signup_mode: mode, signup_email_domains: domains } = await this.settings();
    if (mode === 'closed')
      throw new Forbidden('Sign-ups are closed on this server; ask its admin for an account.', {
        reason: 'signup_disabled',
      });
    if (inviteToken === undefined) {
      const refusal = refusalWithoutInvite(mode, domains, email);
      if (refusal === 'signup_disabled')
        throw new Forbidden('Sign-up on this server needs an invite; ask its admin for one.', { reason: refusal });
      if (refusal === 'email_address_not_authorized')
        throw new Forbidden(`Sign-up is open to addresses at ${domains.join(', ')} only.`, { reason: refusal });
      return { inviteId: undefined };
    }
    if (!isInviteToken(inviteToken))
      throw new InvalidInput(
        [
          {
            at: { in: 'body', field: 'data.invite_token' },
            message: `is not an invite token (${INVITE_TOKEN_PREFIX}… as in the invite link)`,
          },
        ],
        { reason: 'validation_failed' },
      );
    const row = await findInviteByHash(this.db.kysely, hashToken(inviteToken));
    const refusal = inviteRefusal(row, email, this.clock.now());
    if (refusal !== undefined || row === undefined)
      throw new Forbidden(refusal ?? 'This invite is not known.', { reason: 'invite_invalid' });
    return { inviteId: row.id };
  }

  async createInvite(
    createdBy: string | null,
    input: { expires_in_hours?: number | undefined; max_uses?: number | undefined; email?: string | undefined },
  ): Promise<CreatedInvite> {
    const email = input.email?.trim().toLowerCase();
    if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      throw invalidField({ in: 'body', field: 'email' }, 'is not a valid e-mail address');
    const token = generateToken(INVITE_TOKEN_PREFIX);
    const now = this.clock.now();
    const expiresAt = now + (input.expires_in_hours ?? DEFAULT_INVITE_HOURS) * 3_600_000;
    const id = randomUUID();
    await insertInvite(this.db.kysely, {
      id,
      token_hash: hashToken(token),
      email: email ?? null,
      max_uses: input.max_uses ?? 1,
      created_by: createdBy,
      created_at: now,
      expires_at: expiresAt,
    });
    return { id, invite_token: token, url: `${this.dashboardUrl}/sign-up?invite=${token}`, expires_at: iso(expiresAt) };
  }

  async listInvites(): Promise<InviteView[]> {
    const now = this.clock.now();
    const rows = await listInvites(this.db.kysely, MAX_LISTED_INVITES);
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      max_uses: Number(row.max_uses),
      uses: Number(row.uses),
      created_by: row.created_by,
      created_at: iso(row.created_at),
      expires_at: iso(row.expires_at),
      revoked_at: row.revoked_at === null ? null : iso(row.revoked_at),
      status: inviteStatus(row, now),
    }));
  }

  /** Revokes an invite (again: nothing changes); unknown: 404. */
  async revokeInvite(id: string): Promise<{ id: string; revoked: true }> {
    if (!(await findInvite(this.db.kysely, id))) throw new NotFound('No such invite.', { reason: 'invite_not_found' });
    await revokeInvite(this.db.kysely, id, this.clock.now());
    return { id, revoked: true };
  }
}
