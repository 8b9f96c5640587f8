/**
 * @fileoverview Teams (docs/teams.md): create, list, rename, delete; members (roles, removal,
 * leaving); the role rules every team operation checks through {@link TeamService.require}.
 * Outsiders are answered 404 for anything of a team (its existence is not told), members 403
 * where their role falls short, and the last owner cannot leave or lose the role (409).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { lockTeam, lockUserUsage, lockUsersUsage } from '../db/locks.js';
import type { TeamRole } from '../db/schema.js';
import {
  countOwners,
  deleteMember,
  deleteTeam,
  findTeam,
  findTeamRole,
  insertTeam,
  listTeamMemberIds,
  listMembers,
  listTeamsOf,
  renameTeam,
  setMemberRole,
  slugTaken,
  type MyTeam,
  type TeamMember,
  type TeamRow,
} from '../db/queries/teams.js';
import { inTransaction, type Tx } from '../db/transaction.js';
import { emitTeamEvent } from './webhook-events.js';
import { Conflict, Forbidden, invalidField, NotFound } from '../domain/errors.js';

const RANK: Record<TeamRole, number> = { member: 0, admin: 1, owner: 2 };
const SLUG_MAX = 40;

export const NO_SUCH_TEAM = 'No team with this id among yours.';

/** A URL slug from a team name: lower-case letters, digits and single hyphens. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug === '' ? 'team' : slug;
}

export interface TeamWithRole extends TeamRow {
  role: TeamRole;
}

export class TeamService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The caller's role in the team, at least `least`: 404 for outsiders, 403 when it falls short. */
  async require(teamId: string, userId: string, least: TeamRole, q = this.db.kysely): Promise<TeamRole> {
    const role = await findTeamRole(q, teamId, userId);
    if (role === null) throw new NotFound(NO_SUCH_TEAM);
    if (RANK[role] < RANK[least])
      throw new Forbidden(
        `This needs the ${least} role in the team; you are ${role === 'admin' ? 'an' : 'a'} ${role}.`,
      );
    return role;
  }

  async create(userId: string, rawName: string): Promise<TeamWithRole> {
    const name = rawName.trim();
    if (name === '') throw invalidField({ in: 'body', field: 'name' }, 'must not be blank');
    const id = randomUUID();
    const now = this.clock.now();
    const base = slugOf(name);
    return inTransaction(this.db, async (tx) => {
      // The owner's usage is added to the team's (db/queries/team-usage-model.ts): no upload of theirs meanwhile.
      await lockUserUsage(this.db, tx, userId);
      let slug = base;
      // A taken slug gets a short random tail (a second try is practically always free).
      for (let i = 0; await slugTaken(tx, slug); i++) {
        if (i >= 5) throw new Conflict('Could not find a free URL slug for this name; try another name.');
        slug = `${base}-${randomBytes(3).toString('hex')}`;
      }
      await insertTeam(tx, { id, name, slug, now, ownerId: userId });
      return { id, name, slug, createdAt: now, role: 'owner' as const };
    });
  }

  list(userId: string): Promise<MyTeam[]> {
    return listTeamsOf(this.db.kysely, userId);
  }

  async get(teamId: string, userId: string): Promise<TeamWithRole> {
    const role = await this.require(teamId, userId, 'member');
    const team = await findTeam(this.db.kysely, teamId);
    if (team === undefined) throw new NotFound(NO_SUCH_TEAM);
    return { ...team, role };
  }

  async update(teamId: string, userId: string, rawName: string | undefined): Promise<TeamWithRole> {
    const role = await this.require(teamId, userId, 'admin');
    if (rawName !== undefined) {
      const name = rawName.trim();
      if (name === '') throw invalidField({ in: 'body', field: 'name' }, 'must not be blank');
      await inTransaction(this.db, (tx) => renameTeam(tx, teamId, name, this.clock.now()));
    }
    const team = await findTeam(this.db.kysely, teamId);
    if (team === undefined) throw new NotFound(NO_SUCH_TEAM);
    return { ...team, role };
  }

  async delete(teamId: string, userId: string): Promise<void> {
    await this.require(teamId, userId, 'owner');
    // No member's upload adds to the team's usage rows while they go (db/queries/team-usage-model.ts).
    await this.locked(teamId, async (tx) => {
      await lockUsersUsage(this.db, tx, await listTeamMemberIds(tx, teamId));
      await deleteTeam(tx, teamId);
    });
  }

  /** The members; e-mail addresses and last uploads for owners and admins only. */
  async members(teamId: string, userId: string): Promise<{ role: TeamRole; members: TeamMember[] }> {
    const role = await this.require(teamId, userId, 'member');
    const members = await listMembers(this.db.kysely, teamId);
    return { role, members };
  }

  /**
   * Changes a member's role: owners and admins may; only an owner gives or takes the owner role,
   * and the last owner keeps it (hand it over first).
   */
  async setRole(teamId: string, callerId: string, memberId: string, role: TeamRole): Promise<void> {
    await this.locked(teamId, async (tx) => {
      const mine = await this.require(teamId, callerId, 'admin', tx);
      const theirs = await findTeamRole(tx, teamId, memberId);
      if (theirs === null) throw new NotFound('No member with this id in the team.');
      if ((role === 'owner' || theirs === 'owner') && mine !== 'owner')
        throw new Forbidden('Only an owner gives or takes the owner role.');
      if (theirs === 'owner' && role !== 'owner' && (await countOwners(tx, teamId)) <= 1)
        throw new Conflict('The last owner keeps the role: make another member an owner first.');
      await setMemberRole(tx, teamId, memberId, role);
    });
  }

  /**
   * Removes a member; removing yourself is leaving (any role). Admins remove members; owners
   * anyone. The last owner cannot leave: hand the team over or delete it.
   */
  async remove(teamId: string, callerId: string, memberId: string): Promise<void> {
    await this.locked(teamId, async (tx) => {
      const mine = await this.require(teamId, callerId, 'member', tx);
      const theirs = callerId === memberId ? mine : await findTeamRole(tx, teamId, memberId);
      if (callerId !== memberId) {
        if (mine === 'member') throw new Forbidden('Only owners and admins remove members.');
        if (theirs === null) throw new NotFound('No member with this id in the team.');
        if (theirs !== 'member' && mine !== 'owner') throw new Forbidden('Only an owner removes an owner or an admin.');
      }
      if (theirs === 'owner' && (await countOwners(tx, teamId)) <= 1)
        throw new Conflict(
          callerId === memberId
            ? 'You are the last owner: make another member an owner first, or delete the team.'
            : 'The last owner cannot be removed.',
        );
      // The member's usage leaves the team's rows: no upload of theirs meanwhile.
      await lockUserUsage(this.db, tx, memberId);
      await deleteMember(tx, teamId, memberId);
      // Queued in the removal's transaction: the event is sent exactly when the removal holds.
      await emitTeamEvent(
        tx,
        'team.member_left',
        { team_id: teamId, user_id: memberId, role: theirs },
        this.clock.now(),
      );
    });
  }

  /** Runs a membership change with the team's members held against concurrent changes (PostgreSQL). */
  private locked<T>(teamId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return inTransaction(this.db, async (tx) => {
      await lockTeam(this.db, tx, teamId);
      return fn(tx);
    });
  }
}
