/**
 * @fileoverview Migration 0025: `usage_daily` by (user, day), so a window of a user's daily usage
 * (a team's usage reads one per member: docs/teams.md, "Speed") reads only its own days. The
 * table's key is (user, source, model, day): a day range alone reads the user's whole history.
 *
 * The index holds its two key columns only. An upload changes the counts of rows that exist far
 * more often than it adds a (user, day, source, model), and changing a column outside an index
 * leaves it alone (PostgreSQL keeps such updates heap-only), so uploads pay for it only on new
 * rows. A covering index, or a sum per block of days kept by triggers, read a year faster but cost
 * PostgreSQL uploads about a quarter more database CPU in a paired bench:ingest run.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import type { Kysely } from 'kysely';

export function migration() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex('usage_daily_user_day').on('usage_daily').columns(['user_id', 'day']).execute();
    },

    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('usage_daily_user_day').ifExists().execute();
    },
  };
}
