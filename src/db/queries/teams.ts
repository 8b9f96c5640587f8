/**
 * @fileoverview Teams and their members (docs/teams.md): create, rename, delete, list a user's
 * teams, a member's role, the member list, role changes and removals, and the hand-over of a
 * deleted account's last ownership. `findTeamRole` and `listTeamMemberIds` are the seams other
 * features (budgets, webhooks) ask teams through.
 *
 * Every change of membership keeps the team-side read model in the same transaction
 * (team-usage-model.ts): on PostgreSQL its caller holds the ingest lock of each user whose
 * membership changes (db/locks.ts), so no upload of theirs interleaves.
 */
import type { Queryable } from '../connect.js';
import { sql } from 'kysely';
import type { TeamRole } from '../schema.js';
import { deleteTeamUsage, moveMemberUsage } from './team-usage-model.js';

export interface TeamRow {
  id: string;
  name: string;
  slug: string;
  createdAt: number;
}

export interface MyTeam extends TeamRow {
  role: TeamRole;
  members: number;
}

export interface TeamMember {
  userId: string;
  role: TeamRole;
  joinedAt: number;
  displayName: string | null;
  avatarUrl: string | null;
  email: string | null;
  /** Latest sync of any of the member's devices (epoch ms), or null. */
  lastSyncAt: number | null;
}

const asRole = (value: string): TeamRole => (value === 'owner' || value === 'admin' ? value : 'member');

/** The user's role in the team, or null when they are not a member (or there is no such team). */
export async function findTeamRole(db: Queryable, teamId: string, userId: string): Promise<TeamRole | null> {
  const row = await db
    .selectFrom('team_members')
    .select('role')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row === undefined ? null : asRole(row.role);
}

/** The ids of the team's members (any role), in joining order. */
export async function listTeamMemberIds(db: Queryable, teamId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .orderBy('joined_at')
    .orderBy('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

export async function slugTaken(db: Queryable, slug: string): Promise<boolean> {
  const row = await db.selectFrom('teams').select('id').where('slug', '=', slug).executeTakeFirst();
  return row !== undefined;
}

export async function insertTeam(
  db: Queryable,
  team: { id: string; name: string; slug: string; now: number; ownerId: string },
): Promise<void> {
  await db
    .insertInto('teams')
    .values({ id: team.id, name: team.name, slug: team.slug, created_at: team.now, updated_at: team.now })
    .execute();
  await insertMember(db, team.id, team.ownerId, 'owner', team.now);
}

export async function findTeam(db: Queryable, teamId: string): Promise<TeamRow | undefined> {
  const row = await db
    .selectFrom('teams')
    .select(['id', 'name', 'slug', 'created_at'])
    .where('id', '=', teamId)
    .executeTakeFirst();
  return row && { id: row.id, name: row.name, slug: row.slug, createdAt: Number(row.created_at) };
}

export async function renameTeam(db: Queryable, teamId: string, name: string, now: number): Promise<void> {
  await db.updateTable('teams').set({ name, updated_at: now }).where('id', '=', teamId).execute();
}

/** Deletes the team with its members, invites and usage rows (PostgreSQL: holding every member's ingest lock). */
export async function deleteTeam(db: Queryable, teamId: string): Promise<void> {
  await deleteTeamUsage(db, teamId);
  await db.deleteFrom('team_invites').where('team_id', '=', teamId).execute();
  await db.deleteFrom('team_members').where('team_id', '=', teamId).execute();
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
}

/** The ids of the teams the user is a member of (any role). */
export async function listTeamIdsOf(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('team_members').select('team_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.team_id);
}

/** The user's teams with their role and member count, by name. */
export async function listTeamsOf(db: Queryable, userId: string): Promise<MyTeam[]> {
  const rows = await db
    .selectFrom('team_members as me')
    .innerJoin('teams', 'teams.id', 'me.team_id')
    .select((eb) => [
      'teams.id',
      'teams.name',
      'teams.slug',
      'teams.created_at',
      'me.role',
      eb
        .selectFrom('team_members as all')
        .select(eb.fn.countAll<bigint | number | string>().as('n'))
        .whereRef('all.team_id', '=', 'teams.id')
        .as('members'),
    ])
    .where('me.user_id', '=', userId)
    .orderBy('teams.name')
    .orderBy('teams.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    createdAt: Number(r.created_at),
    role: asRole(r.role),
    members: Number(r.members ?? 0),
  }));
}

/** Adds a member, and their whole usage to the team's (PostgreSQL: holding the user's ingest lock). */
export async function insertMember(
  db: Queryable,
  teamId: string,
  userId: string,
  role: TeamRole,
  now: number,
): Promise<void> {
  await db.insertInto('team_members').values({ team_id: teamId, user_id: userId, role, joined_at: now }).execute();
  await moveMemberUsage(db, userId, teamId, 1);
}

/** The team's members with their names and last sync, owners first, then admins, then by joining. */
export async function listMembers(db: Queryable, teamId: string): Promise<TeamMember[]> {
  const rows = await db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select((eb) => [
      'm.user_id',
      'm.role',
      'm.joined_at',
      'u.display_name',
      'u.avatar_url',
      'u.email',
      eb
        .selectFrom('devices as d')
        .select((e) => e.fn.max('d.last_sync_at').as('s'))
        .whereRef('d.user_id', '=', 'm.user_id')
        .as('last_sync_at'),
    ])
    .where('m.team_id', '=', teamId)
    .orderBy(sql`case m.role when 'owner' then 0 when 'admin' then 1 else 2 end`)
    .orderBy('m.joined_at')
    .orderBy('m.user_id')
    .execute();
  return rows.map((r) => ({
    userId: r.user_id,
    role: asRole(r.role),
    joinedAt: Number(r.joined_at),
    displayName: r.display_name,
    avatarUrl: r.avatar_url,
    email: r.email,
    lastSyncAt: r.last_sync_at === null || r.last_sync_at === undefined ? null : Number(r.last_sync_at),
  }));
}

export async function countOwners(db: Queryable, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<bigint | number | string>().as('n'))
    .where('team_id', '=', teamId)
    .where('role', '=', 'owner')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function setMemberRole(db: Queryable, teamId: string, userId: string, role: TeamRole): Promise<void> {
  await db
    .updateTable('team_members')
    .set({ role })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

/** Removes a member, and their whole usage from the team's (PostgreSQL: holding the user's ingest lock). */
export async function deleteMember(db: Queryable, teamId: string, userId: string): Promise<void> {
  await moveMemberUsage(db, userId, teamId, -1);
  await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
}

/**
 * Before an account is deleted: each team whose only owner it is gets a new owner, the
 * longest-standing admin, else the longest-standing member; a team with no one else goes.
 * (The account's memberships themselves are deleted with its other rows, its usage subtracted
 * from their teams first: account-deletion.ts.)
 */
export async function handOverOwnedTeams(db: Queryable, userId: string): Promise<void> {
  const owned = await db
    .selectFrom('team_members')
    .select('team_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'owner')
    .execute();
  for (const { team_id: teamId } of owned) {
    if ((await countOwners(db, teamId)) > 1) continue;
    const heir = await db
      .selectFrom('team_members')
      .select('user_id')
      .where('team_id', '=', teamId)
      .where('user_id', '<>', userId)
      .orderBy(sql`case role when 'admin' then 0 else 1 end`)
      .orderBy('joined_at')
      .orderBy('user_id')
      .executeTakeFirst();
    if (heir === undefined) await deleteTeam(db, teamId);
    else await setMemberRole(db, teamId, heir.user_id, 'owner');
  }
}
