/**
 * @fileoverview Migration 0017: `user_storage`, each account's count of stored raw buckets (the
 * buckets packed in its devices' `usage_device_days` rows, revoked devices' too), which the ingest
 * writers keep inside the upload's transaction and check against MAX_STORED_BUCKETS_PER_USER
 * (src/ingest/core/bounds.ts). A user without a row has none stored.
 *
 * Filled from the packed days: each day's text is a JSON array of its buckets
 * (src/domain/device-day-buckets.ts), so a day holds `json_array_length` of them.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await sql
        .raw(
          `create table user_storage (
             user_id text not null primary key,
             stored_buckets bigint not null
           )${dialect === 'sqlite' ? ' without rowid' : ''}`,
        )
        .execute(db);
      const length = dialect === 'sqlite' ? 'json_array_length(b.buckets)' : 'json_array_length(b.buckets::json)';
      await sql
        .raw(
          `insert into user_storage (user_id, stored_buckets)
             select d.user_id, sum(${length})
               from usage_device_days b join devices d on d.num = b.device_num
              group by d.user_id`,
        )
        .execute(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      await sql`drop table user_storage`.execute(db);
    },
  };
}
