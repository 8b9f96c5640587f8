/** @fileoverview The team tables, as Kysely sees them (migration 0021; re-exported by db/schema.ts). */
import type { ColumnType } from 'kysely';
import type { Int, NullableInt } from './schema.js';

export type TeamRole = 'owner' | 'admin' | 'member';

export interface TeamsTable {
  id: string;
  name: string;
  /** Unique, URL-safe; kept when the team is renamed. */
  slug: string;
  created_at: Int;
  updated_at: Int;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  role: TeamRole;
  joined_at: Int;
}

/** Invite links, by the SHA-256 of their token. */
export interface TeamInvitesTable {
  id: string;
  team_id: string;
  token_hash: string;
  role: TeamRole;
  /** The one e-mail address the invite works for (lower case); null: any signed-in user. */
  email: string | null;
  max_uses: Int;
  uses: ColumnType<bigint, bigint | number | undefined, bigint | number>;
  created_at: Int;
  expires_at: Int;
  revoked_at: NullableInt;
}
