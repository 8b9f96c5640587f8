/**
 * @fileoverview Team invite links (docs/teams.md): owners and admins create them (a role — owner
 * only by an owner —, an expiry, a number of uses, optionally one e-mail address, to which the
 * link is mailed when SMTP is configured), list and revoke them; a signed-in user joins with one.
 * The token (`tt_team_…`) is answered once and stored as its SHA-256.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { lockTeam, lockUserUsage } from '../db/locks.js';
import type { TeamRole } from '../db/schema.js';
import { findTeamRole, insertMember } from '../db/queries/teams.js';
import {
  findTeamInvite,
  findTeamInviteByHash,
  insertTeamInvite,
  listTeamInvites,
  revokeTeamInvite,
  useTeamInvite,
  type TeamInvite,
} from '../db/queries/teams-invites.js';
import { findUserById } from '../db/queries/users.js';
import { inTransaction } from '../db/transaction.js';
import { emitTeamEvent } from './webhook-events.js';
import { Forbidden, NotFound } from '../domain/errors.js';
import type { Mailer } from '../mail/mailer.js';
import { teamInviteMessage } from '../mail/team-invite-message.js';
import { INVITE_HOURS_DEFAULT } from '../schemas/teams.js';
import { generateToken, hashToken } from '../security/tokens.js';
import type { TeamService, TeamWithRole } from './teams.js';

export const TEAM_INVITE_PREFIX = 'tt_team_';
const HOUR_MS = 3_600_000;
const INVALID_INVITE = 'This invite link is not valid: it may have expired, been used up or been revoked.';

export type InviteState = 'active' | 'expired' | 'used_up' | 'revoked';

export function inviteState(invite: TeamInvite, now: number): InviteState {
  if (invite.revokedAt !== null) return 'revoked';
  if (invite.expiresAt <= now) return 'expired';
  if (invite.uses >= invite.maxUses) return 'used_up';
  return 'active';
}

export interface TeamInviteOptions {
  publicUrl: string;
  mailer: Mailer | undefined;
  onMailError: (error: unknown) => void;
}

export interface CreatedInvite {
  id: string;
  token: string;
  url: string;
  expiresAt: number;
  emailed: boolean;
}

export class TeamInviteService {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly teams: TeamService,
    private readonly options: TeamInviteOptions,
  ) {}

  /** The page that shows an invite: the dashboard's `/join`, with the token in the fragment (never sent to servers). */
  urlOf(token: string): string {
    return `${this.options.publicUrl.replace(/\/+$/, '')}/join#${token}`;
  }

  async create(
    userId: string,
    input: { team_id: string; role?: TeamRole; expires_in_hours?: number; max_uses?: number; email?: string },
  ): Promise<CreatedInvite> {
    const mine = await this.teams.require(input.team_id, userId, 'admin');
    const role = input.role ?? 'member';
    if (role === 'owner' && mine !== 'owner') throw new Forbidden('Only an owner invites owners.');
    const team = await this.teams.get(input.team_id, userId);
    const now = this.clock.now();
    const token = generateToken(TEAM_INVITE_PREFIX);
    const email = input.email?.trim().toLowerCase() ?? null;
    const row = {
      id: randomUUID(),
      team_id: input.team_id,
      token_hash: hashToken(token),
      role,
      email,
      max_uses: input.max_uses ?? 1,
      created_at: now,
      expires_at: now + (input.expires_in_hours ?? INVITE_HOURS_DEFAULT) * HOUR_MS,
    };
    await inTransaction(this.db, (tx) => insertTeamInvite(tx, row));
    const url = this.urlOf(token);
    const mailer = this.options.mailer;
    const emailed = email !== null && mailer !== undefined;
    if (emailed) {
      const message = teamInviteMessage({
        to: email,
        team: team.name,
        link: url,
        server: new URL(this.options.publicUrl).host,
        expiresAt: new Date(row.expires_at),
      });
      const job = mailer.send(message).catch((error: unknown) => this.options.onMailError(error));
      this.pending.add(job);
      void job.finally(() => this.pending.delete(job));
    }
    return { id: row.id, token, url, expiresAt: row.expires_at, emailed };
  }

  async list(userId: string, teamId: string): Promise<TeamInvite[]> {
    await this.teams.require(teamId, userId, 'admin');
    return listTeamInvites(this.db.kysely, teamId);
  }

  /** Revokes an invite of a team the caller is an owner or admin of (404 otherwise, as for outsiders). */
  async revoke(userId: string, inviteId: string): Promise<void> {
    const invite = await findTeamInvite(this.db.kysely, inviteId);
    const role = invite && (await findTeamRole(this.db.kysely, invite.teamId, userId));
    if (invite === undefined || role === null || role === undefined) throw new NotFound('No invite with this id.');
    await this.teams.require(invite.teamId, userId, 'admin');
    await inTransaction(this.db, (tx) => revokeTeamInvite(tx, inviteId, this.clock.now()));
  }

  /**
   * Joins the invite's team with its role. A member already keeps their role (no use is counted);
   * an invite for one e-mail address works only for the account with it.
   */
  async join(userId: string, token: string): Promise<TeamWithRole> {
    const now = this.clock.now();
    const teamId = await inTransaction(this.db, async (tx) => {
      const invite = token.startsWith(TEAM_INVITE_PREFIX)
        ? await findTeamInviteByHash(tx, hashToken(token))
        : undefined;
      if (invite === undefined) throw new NotFound(INVALID_INVITE);
      await lockTeam(this.db, tx, invite.teamId);
      if ((await findTeamRole(tx, invite.teamId, userId)) !== null) return invite.teamId;
      if (inviteState(invite, now) !== 'active') throw new NotFound(INVALID_INVITE);
      if (invite.email !== null) {
        const user = await findUserById(tx, userId);
        if (user?.email?.toLowerCase() !== invite.email)
          throw new Forbidden('This invite is for another e-mail address; sign in with that account.');
      }
      if (!(await useTeamInvite(tx, invite.id))) throw new NotFound(INVALID_INVITE);
      // The member's usage joins the team's rows (db/queries/team-usage-model.ts): no upload of theirs meanwhile.
      await lockUserUsage(this.db, tx, userId);
      await insertMember(tx, invite.teamId, userId, invite.role, now);
      await emitTeamEvent(
        tx,
        'team.member_joined',
        { team_id: invite.teamId, user_id: userId, role: invite.role },
        now,
      );
      return invite.teamId;
    });
    return this.teams.get(teamId, userId);
  }

  /** Waits for the invite mails under way (tests; closing). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Waits for the invite mails under way (the mailer is the app's to close). */
  async close(): Promise<void> {
    await this.idle();
  }
}
