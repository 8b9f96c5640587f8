/**
 * @fileoverview The PostgreSQL ingest writer's BEGIN and read (src/ingest/postgres/writer.ts,
 * stored-state.ts), and how its writes join into one statement (the writes themselves, taking row
 * objects, in ingest-postgres-writes.ts): set-based statements over `unnest` arrays, each one
 * shape whatever the group's size, so a named prepared statement is planned once per connection
 * (docs/architecture.md, "SQL").
 */
import pg, { type PoolClient } from 'pg';
import { userIngestLockKey } from '../dialect.js';
import { COSTS_FINGERPRINT_SQL, COSTS_SHARED_LOCK_SQL, fingerprintFromResult } from './daily-costs.js';
import type { CountColumns } from '../token-columns.js';

/** Takes the advisory locks of `keys` in their order; each key is inlined as an escaped literal. */
const LOCK_USERS = (keys: readonly string[]): string => {
  const array = `ARRAY[${keys.map((k) => pg.escapeLiteral(k)).join(',')}]::text[]`;
  return `SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest(${array}) WITH ORDINALITY AS t(k, n) ORDER BY n`;
};

/**
 * Begins an ingest transaction holding the users' advisory locks, taken in sorted order, so groups
 * never deadlock. With `readCosts`, first holds the stored costs' lock shared (before the users'
 * locks, so a repricing's swap waits only for groups that hold nothing it needs) and answers the
 * fingerprint of the data that priced the stored costs (null without one).
 *
 * One simple query (the keys inlined as escaped literals), sent before this returns: the caller may
 * queue its first read right behind it on a pipelined connection, and that read's snapshot is taken
 * after the locks are held.
 */
export function beginLockingUsers(
  client: PoolClient,
  userIds: readonly string[],
  readCosts: boolean,
): Promise<string | null> {
  const users = LOCK_USERS([...new Set(userIds)].sort().map(userIngestLockKey));
  const begun: Promise<unknown> = client.query(
    readCosts ? `BEGIN; ${COSTS_SHARED_LOCK_SQL}; ${users}; ${COSTS_FINGERPRINT_SQL}` : `BEGIN; ${users}`,
  );
  return begun.then((result) => (readCosts ? fingerprintFromResult(result) : null));
}

/**
 * In one round trip: the number of each of the uploads' devices ($7) that still exists (`kind` 'n',
 * the number in `day`), which raw buckets are keyed by (migration 0013) and the writes take as a
 * parameter: a device without one is gone, its account deleted since the upload was authenticated
 * (and, holding the user's lock, the group sees no device go meanwhile); the packed raw buckets of
 * every (device, UTC day) the uploads touch (`kind` 'b', `owner` = device, the text in `packed`;
 * migration 0014); the `usage_daily` rows of the (user, day, source, model) keys they fall in
 * (`kind` 'd', `owner` = user, with the stored cost, whose change goes to `usage_blocks` and the
 * leaderboard's period costs); and each touched (user, day)'s packed `usage_days` row (`kind` 'p',
 * the text in `packed`); and the count of stored raw buckets of each user with buckets in the group
 * (`kind` 'u', the count in `day`; migration 0017; a user without a row has none); and the teams
 * each of those users is a member of (`kind` 't', the team id in `source`; migration 0029): read
 * here, after the users' locks are held, which every membership change of theirs takes too
 * (db/locks.ts), so what is read holds until the group commits.
 *
 * The devices' numbers are looked up once each (the `n` CTE) and joined to the days, not probed
 * again for every day.
 *
 * Every lookup is a LATERAL subquery that cannot be pulled up into a join (a `LIMIT`, or for the
 * teams, which may be several, `OFFSET 0`), so each key is one index probe whatever the table
 * statistics say. As a join, a named statement's plan was made when the tables were nearly empty
 * (a new server, everyone's first sync) and kept: hash joins over sequential scans of
 * `usage_daily` and `usage_days`, read whole by every group until the next ANALYZE
 * (docs/decisions.md, "Ingest on PostgreSQL"). The one join, of the days to the CTE, is of two
 * small sets already in memory.
 */
export const SELECT_STORED = `
  WITH n AS MATERIALIZED (
    SELECT g.device_id, x.num
      FROM (SELECT DISTINCT device_id FROM unnest($7::text[]) AS u(device_id)) g
      CROSS JOIN LATERAL (SELECT num FROM devices x WHERE x.id = g.device_id LIMIT 1) x)
  SELECT 'b' AS kind, h.device_id AS owner, h.day, '' AS source, '' AS model, b.buckets AS packed,
         0 AS input, 0 AS cached_input, 0 AS output, 0 AS reasoning, 0 AS total, 0 AS billable, 0 AS cost_micros
    FROM (SELECT DISTINCT * FROM unnest($1::text[], $2::int8[])) AS h(device_id, day)
    JOIN n ON n.device_id = h.device_id
    CROSS JOIN LATERAL (
      SELECT buckets FROM usage_device_days x WHERE x.device_num = n.num AND x.day = h.day LIMIT 1) b
  UNION ALL
  SELECT 'd', k.user_id, k.day, k.source, k.model, NULL, d.input, d.cached_input, d.output, d.reasoning, d.total, d.billable, d.cost_micros
    FROM (SELECT DISTINCT * FROM unnest($3::text[], $4::int8[], $5::text[], $6::text[])) AS k(user_id, day, source, model)
    CROSS JOIN LATERAL (
      SELECT input, cached_input, output, reasoning, total, billable, cost_micros FROM usage_daily x
       WHERE x.user_id = k.user_id AND x.day = k.day AND x.source = k.source AND x.model = k.model
       LIMIT 1) d
  UNION ALL
  SELECT 'p', k.user_id, k.day, '', '', p.counts, 0, 0, 0, 0, 0, 0, 0
    FROM (SELECT DISTINCT * FROM unnest($3::text[], $4::int8[])) AS k(user_id, day)
    CROSS JOIN LATERAL (SELECT counts FROM usage_days x WHERE x.user_id = k.user_id AND x.day = k.day LIMIT 1) p
  UNION ALL
  SELECT 'n', n.device_id, n.num, '', '', NULL, 0, 0, 0, 0, 0, 0, 0 FROM n
  UNION ALL
  SELECT 'u', k.user_id, s.stored_buckets, '', '', NULL, 0, 0, 0, 0, 0, 0, 0
    FROM (SELECT DISTINCT user_id FROM unnest($3::text[]) AS u(user_id)) k
    CROSS JOIN LATERAL (SELECT stored_buckets FROM user_storage x WHERE x.user_id = k.user_id LIMIT 1) s
  UNION ALL
  SELECT 't', k.user_id, 0, t.team_id, '', NULL, 0, 0, 0, 0, 0, 0, 0
    FROM (SELECT DISTINCT user_id FROM unnest($3::text[]) AS u(user_id)) k
    CROSS JOIN LATERAL (SELECT team_id FROM team_members x WHERE x.user_id = k.user_id OFFSET 0) t
  UNION ALL
  SELECT 'v', v.device_id, coalesce((SELECT version FROM otlp_versions x WHERE x.device_id = v.device_id), 0),
         '', '', NULL, 0, 0, 0, 0, 0, 0, 0
    FROM unnest($8::text[]) AS v(device_id)`;

/** A row of {@link SELECT_STORED}. */
export interface StoredStateRow extends CountColumns {
  kind: 'b' | 'd' | 'p' | 'n' | 'u' | 't' | 'v';
  owner: string;
  day: bigint;
  source: string;
  model: string;
  packed: string | null;
  cost_micros: bigint;
}

/** A fragment of SQL and its parameters (its placeholders numbered from $1): one write of a joined statement. */
export interface Fragment {
  sql: string;
  params: unknown[];
}

/**
 * Joins independent writes into one statement of data-modifying CTEs (one round trip), renumbering
 * each fragment's $n placeholders. The fragments touch different rows, so their order does not matter.
 */
export function combineWrites(fragments: readonly Fragment[], final: Fragment): Fragment {
  const params: unknown[] = [];
  const renumber = (fragment: Fragment): string => {
    const offset = params.length;
    params.push(...fragment.params);
    return fragment.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`);
  };
  const ctes = fragments.map((fragment, i) => `w${i} AS (${renumber(fragment)})`);
  const main = renumber(final);
  return { sql: ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n${main}` : main, params };
}
