/**
 * @fileoverview Rate-limit token buckets shared by the instances on one PostgreSQL database
 * (src/process/limits-postgres.ts): one row a limit and key in `rate_limit_buckets`.
 */
import type { PostgresDb } from '../connect.js';
import { preparedName } from '../prepared-name.js';

/**
 * Refills each asked bucket to `now` ($4, ms), then grants min(asked, whole tokens) and keeps the
 * rest. A new bucket starts full. Every SET expression reads the row as it was (b.*).
 */
const TAKE = `
insert into rate_limit_buckets as b (name, key, tokens, updated_at, asked, granted)
select $1, q.key, $2::float8 - least(q.n, floor($2::float8)), $4::bigint, q.n, least(q.n, floor($2::float8))
from unnest($5::text[], $6::int[]) as q(key, n)
on conflict (name, key) do update set
  granted = least(excluded.asked, floor(least($2::float8, b.tokens + greatest(0, $4::bigint - b.updated_at) * $3::float8))),
  tokens = least($2::float8, b.tokens + greatest(0, $4::bigint - b.updated_at) * $3::float8)
         - least(excluded.asked, floor(least($2::float8, b.tokens + greatest(0, $4::bigint - b.updated_at) * $3::float8))),
  updated_at = greatest(b.updated_at, $4::bigint),
  asked = excluded.asked
returning key, granted, tokens`;

/** Buckets that have refilled completely say nothing a new one would not: dropped once a minute. */
const SWEEP = `delete from rate_limit_buckets where name = $1 and updated_at < $2::bigint`;
/** One limit's refill settings at `now` (ms). */
export interface TakeSettings {
  readonly name: string;
  readonly burst: number;
  readonly refillPerMs: number;
  readonly now: number;
}

/** Takes up to `n` tokens for each (key → n) of one limit; answers each key's grant and the tokens left. */
export async function takeTokens(
  db: PostgresDb,
  t: TakeSettings,
  asked: ReadonlyMap<string, number>,
): Promise<{ key: string; granted: number; tokens: number }[]> {
  // Named: asked about once an event-loop turn under load, it is planned once per connection.
  const result = await db.pool.query<{ key: string; granted: number; tokens: number }>({
    name: preparedName(TAKE),
    text: TAKE,
    values: [t.name, t.burst, t.refillPerMs, t.now, [...asked.keys()], [...asked.values()]],
  });
  return result.rows;
}

/** Drops one limit's buckets untouched since `before` (ms): they have refilled completely. */
export async function sweepFullBuckets(db: PostgresDb, name: string, before: number): Promise<void> {
  await db.pool.query(SWEEP, [name, before]);
}
