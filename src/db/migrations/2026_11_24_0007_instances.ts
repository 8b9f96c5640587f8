/**
 * @fileoverview Migration 0007: what separately started server instances on one database share.
 * `rate_limit_buckets` holds the token buckets of the rate limits (one row a limit and key: the
 * tokens left when last taken from, and when), so a device's uploads spread over instances meet one
 * bucket; `job_claims` records when a scheduled job last started anywhere, so it runs once an
 * interval however many instances schedule it. Created on both engines (one schema everywhere).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('rate_limit_buckets')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('tokens', 'double precision', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('asked', 'integer', (c) => c.notNull())
        .addColumn('granted', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_buckets_pk', ['name', 'key'])
        .execute();
      // Unlogged: a take commits without waiting for the WAL to reach the disk (measured: ~9 ms a
      // lone take on a busy disk, logged); after a crash the buckets start full, which is harmless.
      if (dialect === 'postgres') await sql`alter table rate_limit_buckets set unlogged`.execute(db);
      await db.schema
        .createTable('job_claims')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('job_claims').ifExists().execute();
      await db.schema.dropTable('rate_limit_buckets').ifExists().execute();
    },
  };
}
