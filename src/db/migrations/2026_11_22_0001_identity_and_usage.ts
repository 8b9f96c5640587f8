/**
 * @fileoverview First schema: users and sessions, devices and their tokens, link codes,
 * usage buckets with their read models, subscriptions, upload events and server secrets.
 * Frozen in time: later changes go into new migrations.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { CreateTableBuilder, Kysely } from 'kysely';
import { clustered, type DialectName } from '../dialect.js';

type TokenTable = CreateTableBuilder<string, string>;

function withTokens(table: TokenTable): TokenTable {
  return table
    .addColumn('input', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('cached_input', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('output', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reasoning', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('billable', 'bigint', (c) => c.notNull().defaultTo(0));
}

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('password_hash', 'text')
        .addColumn('display_name', 'text')
        .addColumn('avatar_url', 'text')
        .addColumn('external_id', 'text', (c) => c.unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('refresh_tokens_session').on('refresh_tokens').column('session_id').execute();

      await db.schema
        .createTable('devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint')
        .addColumn('last_sync_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('devices_user').on('devices').column('user_id').execute();

      await db.schema
        .createTable('device_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();

      await db.schema
        .createTable('link_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('request_id', 'text')
        .addColumn('device_id', 'text')
        .execute();

      await clustered(
        dialect,
        withTokens(
          (db.schema as Kysely<any>['schema'])
            .createTable('usage_buckets')
            .addColumn('device_id', 'text', (c) => c.notNull())
            .addColumn('hour_start', 'bigint', (c) => c.notNull())
            .addColumn('source', 'text', (c) => c.notNull())
            .addColumn('model', 'text', (c) => c.notNull())
            .addColumn('project_key', 'text', (c) => c.notNull())
            .addColumn('user_id', 'text', (c) => c.notNull())
            .addColumn('project_ref', 'text'),
        )
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('usage_buckets_pk', ['device_id', 'hour_start', 'source', 'model', 'project_key']),
      ).execute();

      await clustered(
        dialect,
        withTokens(
          db.schema
            .createTable('usage_rollup')
            .addColumn('user_id', 'text', (c) => c.notNull())
            .addColumn('hour_start', 'bigint', (c) => c.notNull())
            .addColumn('source', 'text', (c) => c.notNull())
            .addColumn('model', 'text', (c) => c.notNull()),
        ).addPrimaryKeyConstraint('usage_rollup_pk', ['user_id', 'hour_start', 'source', 'model']),
      ).execute();

      await clustered(
        dialect,
        withTokens(
          db.schema
            .createTable('project_usage')
            .addColumn('user_id', 'text', (c) => c.notNull())
            .addColumn('project_key', 'text', (c) => c.notNull())
            .addColumn('source', 'text', (c) => c.notNull())
            .addColumn('project_ref', 'text'),
        )
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('project_usage_pk', ['user_id', 'project_key', 'source']),
      ).execute();

      await db.schema
        .createTable('device_subscriptions')
        .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('tool', 'text')
        .addColumn('provider', 'text')
        .addColumn('product', 'text')
        .addColumn('plan_type', 'text')
        .addColumn('rate_limit_tier', 'text')
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('device_subscriptions_pk', ['device_id', 'position'])
        .execute();
      await db.schema.createIndex('device_subscriptions_user').on('device_subscriptions').column('user_id').execute();

      await db.schema
        .createTable('ingest_events')
        .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigint', (c) =>
          dialect === 'sqlite' ? c.primaryKey() : c.primaryKey().generatedAlwaysAsIdentity(),
        )
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('bucket_count', 'bigint', (c) => c.notNull())
        .addColumn('inserted', 'bigint', (c) => c.notNull())
        .addColumn('skipped', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ingest_events_created').on('ingest_events').column('created_at').execute();

      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      for (const table of [
        'server_secrets',
        'ingest_events',
        'device_subscriptions',
        'project_usage',
        'usage_rollup',
        'usage_buckets',
        'link_codes',
        'device_tokens',
        'devices',
        'refresh_tokens',
        'users',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
