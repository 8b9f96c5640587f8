/** @fileoverview The single sign-on tables (migration 0017), as Kysely sees them; part of schema.ts's `Database`. */
import type { ColumnType } from 'kysely';

/** As schema.ts's: 64-bit integers read back as bigint (repeated here so the two files do not import each other). */
type Int = ColumnType<bigint, bigint | number, bigint | number>;
type NullableInt = ColumnType<bigint | null, bigint | number | null | undefined, bigint | number | null>;

/** A single sign-on under way at a provider (migration 0017), keyed by the SHA-256 of its state. */
export interface SsoFlowsTable {
  state_hash: string;
  provider: string;
  nonce: string | null;
  provider_verifier: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  redirect_to: string;
  created_at: Int;
  expires_at: Int;
}

/** A one-time code a PKCE client exchanges for a session, stored as its SHA-256. */
export interface SsoCodesTable {
  code_hash: string;
  user_id: string;
  provider: string;
  code_challenge: string;
  code_challenge_method: string;
  authenticated_at: Int;
  expires_at: Int;
  used_at: NullableInt;
}

/** A provider's subject linked to a user: a later sign-in matches by it. */
export interface UserIdentitiesTable {
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: Int;
  last_sign_in_at: Int;
}
