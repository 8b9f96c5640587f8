/**
 * @fileoverview The account and credential tables, as Kysely sees them (part of db/schema.ts, which
 * re-exports them): users, sessions (refresh tokens), devices and their tokens, API tokens,
 * recovery links, link codes, sign-up invites and instance settings.
 */
import type { ColumnType } from 'kysely';
import type { Int, NullableInt } from './schema.js';

export interface UsersTable {
  id: string;
  email: string | null;
  password_hash: string | null;
  display_name: string | null;
  avatar_url: string | null;
  external_id: string | null;
  created_at: Int;
  updated_at: Int;
  /** When the account became an instance admin; null: not one (migration 0020). */
  admin_since: NullableInt;
  /** When an admin disabled the account; null: enabled (migration 0020). */
  disabled_at: NullableInt;
}

/** Named instance settings an admin changes at run time, and the first-admin claim (migration 0020). */
export interface InstanceSettingsTable {
  name: string;
  value: string;
  updated_at: Int;
}

/** Sign-up invites, by the SHA-256 of their token (migration 0020). */
export interface InvitesTable {
  id: string;
  token_hash: string;
  /** The one e-mail address the invite works for (lower case); null: any. */
  email: string | null;
  max_uses: Int;
  uses: ColumnType<bigint, bigint | number | undefined, bigint | number>;
  created_by: string | null;
  created_at: Int;
  expires_at: Int;
  revoked_at: NullableInt;
}

export interface RefreshTokensTable {
  token_hash: string;
  user_id: string;
  session_id: string;
  created_at: Int;
  expires_at: Int;
  used_at: NullableInt;
  revoked_at: NullableInt;
  /** When the session was signed in to (copied to every rotated token); NULL for sessions older than migration 0015. */
  authenticated_at: NullableInt;
}

export interface DevicesTable {
  id: string;
  user_id: string;
  name: string;
  platform: string;
  created_at: Int;
  last_seen_at: NullableInt;
  last_sync_at: NullableInt;
  /** The latest upload's time, set by the ingest writers (migration 0011). */
  last_upload_at: NullableInt;
  revoked_at: NullableInt;
  /**
   * The device's small number, which its raw buckets are keyed by (migration 0013); the database
   * gives it on insert (an identity on PostgreSQL, a trigger on SQLite).
   */
  num: ColumnType<bigint, never, never>;
}

export interface DeviceTokensTable {
  token_hash: string;
  device_id: string;
  user_id: string;
  created_at: Int;
  last_used_at: NullableInt;
  revoked_at: NullableInt;
}

/** A read-only personal API token (`tt_pat_…`), stored by its SHA-256 only (migration 0016). */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  created_at: Int;
  expires_at: NullableInt;
  last_used_at: NullableInt;
}

/** A password recovery link's token, stored by its SHA-256 only; one hour, single use (migration 0018). */
export interface RecoveryTokensTable {
  token_hash: string;
  user_id: string;
  created_at: Int;
  expires_at: Int;
  used_at: NullableInt;
}

export interface LinkCodesTable {
  code_hash: string;
  user_id: string;
  created_at: Int;
  expires_at: Int;
  used_at: NullableInt;
  request_id: string | null;
  device_id: string | null;
}
