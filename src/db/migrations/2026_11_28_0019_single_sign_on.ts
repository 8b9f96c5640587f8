/**
 * @fileoverview Migration 0019: single sign-on (docs/running-for-a-group.md, "Single sign-on").
 * `sso_flows`: a sign-in under way at a provider, keyed by the SHA-256 of its random `state`, with
 * the nonce and PKCE verifier sent to the provider, the client's own PKCE challenge and where to
 * return; taken (deleted) by the callback, 10 minutes at most. `sso_codes`: the one-time codes a
 * PKCE client exchanges for a session, stored as SHA-256 only and bound to the client's challenge.
 * `user_identities`: which provider subject is which user, so a later sign-in matches by subject.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('sso_flows')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text')
        .addColumn('provider_verifier', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text')
        .addColumn('code_challenge_method', 'text')
        .addColumn('redirect_to', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sso_flows_expires').on('sso_flows').column('expires_at').execute();
      await db.schema
        .createTable('sso_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('code_challenge_method', 'text', (c) => c.notNull())
        .addColumn('authenticated_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('sso_codes_user').on('sso_codes').column('user_id').execute();
      await db.schema
        .createTable('user_identities')
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('email', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_sign_in_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_identities_pk', ['provider', 'subject'])
        .execute();
      await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('user_identities').ifExists().execute();
      await db.schema.dropTable('sso_codes').ifExists().execute();
      await db.schema.dropTable('sso_flows').ifExists().execute();
    },
  };
}
