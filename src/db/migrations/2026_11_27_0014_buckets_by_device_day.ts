/**
 * @fileoverview Migration 0014: the raw buckets are stored one row per (device, UTC epoch day) —
 * `usage_device_days`, the day's buckets packed into one JSON text (src/domain/device-day-buckets.ts)
 * — in place of one `usage_buckets` row per bucket.
 *
 * Why: an upload's buckets fall in one or a few days, so it reads and writes a row or two where it
 * read and wrote a row per bucket; on PostgreSQL the raw-bucket rows were ~40 % of an upload's CPU
 * (docs/decisions.md, "Raw buckets by device and day").
 *
 * Each day's text is built in one statement per engine, byte for byte the text the writers pack:
 * `[[slot, source, model, project_key, project_ref, "input,cached,output,reasoning,total,billable"], …]`
 * without spaces, buckets in key order (slot, then the strings by code point: SQLite's binary
 * collation, `collate "C"` on PostgreSQL), the counts as decimal text so they stay exact past 2^53.
 * (The writers sort strings by UTF-16 code unit, which differs only where a character past U+FFFF
 * meets one in U+E000..U+FFFF; they read a day by key and pack it sorted again, so the order a day
 * was stored in does not matter to them.)
 * A day's `updated_at` is the latest of its buckets'. `down` unpacks the days again; each bucket
 * then takes its day's `updated_at`.
 *
 * SQLite keeps `usage_device_days` as a rowid table: a packed day runs from hundreds of bytes to
 * kilobytes, past which a WITHOUT ROWID row would spill to overflow pages.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

const DAY_MS = 86_400_000;
const HALF_HOUR_MS = 1_800_000;
const COUNTS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'];
const KEY = ['source', 'model', 'project_key'];

/** `usage_buckets` as migration 0013 left it. */
function bucketsTable(dialect: DialectName) {
  return sql.raw(`create table usage_buckets (
      device_num bigint not null,
      hour_start bigint not null,
      source text not null,
      model text not null,
      project_key text not null,
      project_ref text,
      ${COUNTS.map((c) => `${c} bigint not null default 0`).join(', ')},
      updated_at bigint not null,
      constraint usage_buckets_pk primary key (device_num, hour_start, source, model, project_key)
    )${dialect === 'sqlite' ? ' without rowid' : ''}`);
}

/** One day's row of every device's raw buckets, packed. */
function packStatement(dialect: DialectName) {
  const counts = COUNTS.map((c) => `cast(${c} as text)`).join(` || ',' || `);
  if (dialect === 'sqlite') {
    // json_array writes a text as a JSON string and NULL as null, without spaces; a json_array
    // passed straight to json_group_array is embedded as JSON, not as a string. The order is the
    // aggregate's own (SQLite 3.44+), not left to the order rows reach the group.
    return `insert into usage_device_days (device_num, day, buckets, updated_at)
      select device_num, day,
             json_group_array(json_array(slot, ${KEY.join(', ')}, project_ref, counts)
                              order by slot, ${KEY.join(', ')}),
             max(updated_at)
        from (select device_num, hour_start / ${DAY_MS} as day, (hour_start % ${DAY_MS}) / ${HALF_HOUR_MS} as slot,
                     ${KEY.join(', ')}, project_ref, ${counts} as counts, updated_at
                from usage_buckets) b
       group by device_num, day`;
  }
  // Built as text rather than json_agg(json_build_array(…)), whose output has a space after each
  // comma: the same bytes as on SQLite and as the writers pack. to_json(text) is a JSON string.
  const str = (c: string) => `to_json(${c})::text`;
  return `insert into usage_device_days (device_num, day, buckets, updated_at)
    select device_num, hour_start / ${DAY_MS},
           '[' || string_agg(
             '[' || ((hour_start % ${DAY_MS}) / ${HALF_HOUR_MS})::text
                 || ',' || ${KEY.map(str).join(` || ',' || `)}
                 || ',' || coalesce(${str('project_ref')}, 'null')
                 || ',"' || ${counts} || '"]',
             ',' order by hour_start, ${KEY.map((c) => `${c} collate "C"`).join(', ')}) || ']',
           max(updated_at)
      from usage_buckets
     group by device_num, hour_start / ${DAY_MS}`;
}

/** Every packed bucket back into a row of `usage_buckets`, with its day's `updated_at`. */
function unpackStatement(dialect: DialectName) {
  const into = `insert into usage_buckets (device_num, hour_start, ${KEY.join(', ')}, project_ref,
                                           ${COUNTS.join(', ')}, updated_at)`;
  if (dialect === 'sqlite') {
    // The counts text "a,b,…" read as a JSON array of integers: SQLite's JSON keeps 64-bit integers exact.
    return `${into}
      select device_num, day * ${DAY_MS} + (b ->> 0) * ${HALF_HOUR_MS}, b ->> 1, b ->> 2, b ->> 3, b ->> 4,
             ${COUNTS.map((_, i) => `c ->> ${i}`).join(', ')}, updated_at
        from (select d.device_num, d.day, d.updated_at, e.value as b, '[' || (e.value ->> 5) || ']' as c
                from usage_device_days d, json_each(d.buckets) e) u`;
  }
  return `${into}
    select d.device_num, d.day * ${DAY_MS} + (e.b ->> 0)::bigint * ${HALF_HOUR_MS}, e.b ->> 1, e.b ->> 2, e.b ->> 3, e.b ->> 4,
           ${COUNTS.map((_, i) => `x.c[${i + 1}]::bigint`).join(', ')}, d.updated_at
      from usage_device_days d
     cross join lateral json_array_elements(d.buckets::json) as e(b)
     cross join lateral (select string_to_array(e.b ->> 5, ',') as c) x`;
}

export function migration(dialect: DialectName) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await sql`create table usage_device_days (
          device_num bigint not null,
          day bigint not null,
          buckets text not null,
          updated_at bigint not null,
          constraint usage_device_days_pk primary key (device_num, day)
        )`.execute(db);
      await sql.raw(packStatement(dialect)).execute(db);
      await sql`drop table usage_buckets`.execute(db);
    },

    async down(db: Kysely<any>): Promise<void> {
      await bucketsTable(dialect).execute(db);
      await sql.raw(unpackStatement(dialect)).execute(db);
      await sql`drop table usage_device_days`.execute(db);
    },
  };
}
