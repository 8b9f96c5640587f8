/**
 * @fileoverview Migration 0006: `leaderboard_refresh_lease`, at most one row: which process is
 * refreshing the leaderboard, until when. SQLite's stand-in for PostgreSQL's advisory lock now that
 * several server processes can share one SQLite file (SERVER_PROCESSES): a refresh takes the lease
 * in a short write transaction, holds it while it computes (outside any transaction, so uploads go
 * on), and deletes it when done; a crashed holder's lease runs out. Created on both engines (the
 * same schema everywhere); only the SQLite path uses it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('leaderboard_refresh_lease')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('leaderboard_refresh_lease').ifExists().execute();
    },
  };
}
