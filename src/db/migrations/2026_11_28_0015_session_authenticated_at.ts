/**
 * @fileoverview Migration 0015: `refresh_tokens.authenticated_at` — when the session the token
 * belongs to was signed in to (a password sign-in or a sign-up; later, a password-recovery link).
 * A rotated token takes its parent's, so a refresh never makes a session look newly signed in.
 * A password change without the current password is allowed only shortly after that instant
 * (services/reauthentication.ts).
 *
 * Sessions that exist already are left without one (NULL): they count as signed in long ago, the
 * safe side, so changing the password from them asks for the current one.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('refresh_tokens').addColumn('authenticated_at', 'bigint').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('refresh_tokens').dropColumn('authenticated_at').execute();
    },
  };
}
