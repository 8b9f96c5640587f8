/** @fileoverview Team invite links (docs/teams.md): create, list, revoke, find by token hash, count a use. */
import type { Queryable } from '../connect.js';

import type { TeamRole } from '../schema.js';

export interface TeamInvite {
  id: string;
  teamId: string;
  role: TeamRole;
  email: string | null;
  maxUses: number;
  uses: number;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

type InviteRow = {
  id: string;
  team_id: string;
  role: string;
  email: string | null;
  max_uses: bigint;
  uses: bigint;
  created_at: bigint;
  expires_at: bigint;
  revoked_at: bigint | null;
};

const COLUMNS = [
  'id',
  'team_id',
  'role',
  'email',
  'max_uses',
  'uses',
  'created_at',
  'expires_at',
  'revoked_at',
] as const;

function invite(r: InviteRow): TeamInvite {
  return {
    id: r.id,
    teamId: r.team_id,
    role: r.role === 'owner' || r.role === 'admin' ? r.role : 'member',
    email: r.email,
    maxUses: Number(r.max_uses),
    uses: Number(r.uses),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
  };
}

export async function insertTeamInvite(
  db: Queryable,
  row: {
    id: string;
    team_id: string;
    token_hash: string;
    role: TeamRole;
    email: string | null;
    max_uses: number;
    created_at: number;
    expires_at: number;
  },
): Promise<void> {
  await db.insertInto('team_invites').values(row).execute();
}

/** The team's invites, newest first (revoked, expired and used-up ones too). */
export async function listTeamInvites(db: Queryable, teamId: string): Promise<TeamInvite[]> {
  const rows = await db
    .selectFrom('team_invites')
    .select(COLUMNS)
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(invite);
}

export async function findTeamInvite(db: Queryable, id: string): Promise<TeamInvite | undefined> {
  const row = await db.selectFrom('team_invites').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && invite(row);
}

export async function findTeamInviteByHash(db: Queryable, tokenHash: string): Promise<TeamInvite | undefined> {
  const row = await db
    .selectFrom('team_invites')
    .select(COLUMNS)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && invite(row);
}

export async function revokeTeamInvite(db: Queryable, id: string, now: number): Promise<void> {
  await db
    .updateTable('team_invites')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Counts one use, unless the invite was used up meanwhile; false then. */
export async function useTeamInvite(db: Queryable, id: string): Promise<boolean> {
  const result = await db
    .updateTable('team_invites')
    .set((eb) => ({ uses: eb('uses', '+', 1n) }))
    .where('id', '=', id)
    .whereRef('uses', '<', 'max_uses')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
