/**
 * @fileoverview What the sign-in API takes and answers about accounts (profile input, the public
 * user, a session) and the checks of a new account's e-mail address, password and profile; the
 * errors those checks and sign-ins refuse with, in GoTrue's words (`reason`). Used by accounts.ts
 * and account creation.
 */
import type { UserRow } from '../db/schema.js';
import { InvalidInput } from '../domain/errors.js';

export interface ProfileInput {
  display_name?: string | null | undefined;
  avatar_url?: string | null | undefined;
}

/** The fields of GoTrue's `PUT /user` body that this server reads. */
export interface UserUpdate {
  data?: ProfileInput | undefined;
  password?: string | undefined;
  currentPassword?: string | undefined;
  email?: string | undefined;
}

export interface PublicUser {
  id: string;
  aud: 'authenticated';
  role: 'authenticated';
  email: string | null;
  created_at: string;
  updated_at: string;
  user_metadata: { display_name?: string; avatar_url?: string };
  /** `role`: `admin` for an instance admin, else `user` (docs/running-for-a-group.md). */
  app_metadata: { provider: string; providers: string[]; role: 'admin' | 'user' };
  identities: never[];
}

export interface Session {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: PublicUser;
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 8;

/** Input refused as a whole (no one field named), with GoTrue's word for why (`reason`). */
export function invalid(reason: string, detail: string): InvalidInput {
  return new InvalidInput([], { detail, reason });
}

/** GoTrue's answer to a disabled ("banned") user's sign-in or refresh: 400 `user_banned`. */
export function banned(): InvalidInput {
  return invalid('user_banned', 'This account has been disabled by an admin of this server.');
}

/** The e-mail address (lower case) of a new account, after checking it and the password. */
export function checkEmailAndPassword(emailInput: string, password: string): string {
  const email = emailInput.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254)
    throw invalid('email_address_invalid', 'That is not a valid e-mail address.');
  if (password.length < MIN_PASSWORD_LENGTH)
    throw invalid('weak_password', 'The password must be at least 8 characters long.');
  return email;
}

/** Checks profile fields: display names are short text, avatars http(s) URLs. */
export function checkProfile(input: ProfileInput): { display_name?: string | null; avatar_url?: string | null } {
  const out: { display_name?: string | null; avatar_url?: string | null } = {};
  if (input.display_name !== undefined) {
    const name = input.display_name === null ? null : input.display_name.trim().slice(0, 100) || null;
    out.display_name = name;
  }
  if (input.avatar_url !== undefined) {
    const url = input.avatar_url === null ? null : input.avatar_url.trim() || null;
    if (url !== null) {
      let ok = false;
      try {
        const parsed = new URL(url);
        ok = parsed.protocol === 'https:' || parsed.protocol === 'http:';
      } catch {
        ok = false;
      }
      if (!ok || url.length > 500)
        throw invalid('validation_failed', 'avatar_url must be an http(s) URL of at most 500 characters.');
    }
    out.avatar_url = url;
  }
  return out;
}

export function toPublicUser(row: UserRow): PublicUser {
  const metadata: PublicUser['user_metadata'] = {};
  if (row.display_name) metadata.display_name = row.display_name;
  if (row.avatar_url) metadata.avatar_url = row.avatar_url;
  // 'email': signs in with a password. Without one the account is SSO-only (external bearer tokens,
  // or single sign-on): the dashboard then hides the password form and deletion asks `confirm`.
  const provider = row.password_hash !== null ? 'email' : row.external_id ? 'oidc' : 'sso';
  return {
    id: row.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: row.email,
    created_at: new Date(Number(row.created_at)).toISOString(),
    updated_at: new Date(Number(row.updated_at)).toISOString(),
    user_metadata: metadata,
    app_metadata: { provider, providers: [provider], role: row.admin_since === null ? 'user' : 'admin' },
    identities: [],
  };
}
