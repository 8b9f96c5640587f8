/**
 * @fileoverview The PostgreSQL ingest writer's statements (src/ingest/postgres-group-write.ts): set-
 * based statements over `unnest` arrays, each one shape whatever the group's size, so a named
 * prepared statement is planned once per connection (docs/architecture.md, "SQL").
 */
import pg, { type PoolClient } from 'pg';
import { userIngestLockKey } from '../dialect.js';
import { COSTS_FINGERPRINT_SQL, COSTS_SHARED_LOCK_SQL, fingerprintFromResult } from './daily-costs.js';
import { STORED_COLUMNS } from './ingest-rows.js';

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
 * In one round trip: the number of each of the uploads' devices ($8) that still exists (`kind` 'n',
 * the number in `hour_start`), which raw buckets are keyed by (migration 0013) and the writes take
 * as a parameter: a device without one is gone, its account deleted since the upload was
 * authenticated (and, holding the user's lock, the group sees no device go meanwhile); the stored
 * rows of every (device, half-hour) the uploads touch, up to $7 of each (`kind` 'b', `owner` =
 * device; a half-hour that returns $7 rows may hold more, and its groups are read again with
 * {@link SELECT_GROUP_VARIANTS}); the `usage_daily` rows of the (user, day, source, model) keys they
 * fall in (`kind` 'd', `owner` = user, `hour_start` = day); and each touched (user, day)'s packed
 * `usage_days` row (`kind` 'p', `hour_start` = day, the text in `project_ref`). Reading whole
 * half-hours serves the bucket bound as well (its rows counted) with one index probe a half-hour.
 *
 * The devices' numbers are looked up once each (the `n` CTE) and joined to the half-hours, not
 * probed again for every half-hour: ten probes of `devices` an upload fewer, nearly half the
 * buffer reads of the statement.
 *
 * Every lookup is a LATERAL subquery that cannot be pulled up into a join (a `LIMIT`), so each key
 * is one index probe whatever the table statistics say. As a join, a named statement's plan was
 * made when the tables were nearly empty (a new server, everyone's first sync) and kept: hash
 * joins over sequential scans of `usage_daily` and `usage_days`, read whole by every group until
 * the next ANALYZE (docs/decisions.md, "Ingest on PostgreSQL"). The one join, of the half-hours to
 * the CTE, is of two small sets already in memory.
 */
export const SELECT_STORED = `
  WITH n AS MATERIALIZED (
    SELECT g.device_id, x.num
      FROM (SELECT DISTINCT device_id FROM unnest($8::text[]) AS u(device_id)) g
      CROSS JOIN LATERAL (SELECT num FROM devices x WHERE x.id = g.device_id LIMIT 1) x)
  SELECT 'b' AS kind, h.device_id AS owner, ${STORED_COLUMNS.split(', ')
    .map((c) => `b.${c}`)
    .join(', ')}
    FROM (SELECT DISTINCT * FROM unnest($1::text[], $2::int8[])) AS h(device_id, hour_start)
    JOIN n ON n.device_id = h.device_id
    CROSS JOIN LATERAL (
      SELECT ${STORED_COLUMNS} FROM usage_buckets x
       WHERE x.device_num = n.num AND x.hour_start = h.hour_start
       LIMIT $7) b
  UNION ALL
  SELECT 'd', k.user_id, k.day, k.source, k.model, '', NULL, d.input, d.cached_input, d.output, d.reasoning, d.total, d.billable
    FROM (SELECT DISTINCT * FROM unnest($3::text[], $4::int8[], $5::text[], $6::text[])) AS k(user_id, day, source, model)
    CROSS JOIN LATERAL (
      SELECT input, cached_input, output, reasoning, total, billable FROM usage_daily x
       WHERE x.user_id = k.user_id AND x.day = k.day AND x.source = k.source AND x.model = k.model
       LIMIT 1) d
  UNION ALL
  SELECT 'p', k.user_id, k.day, '', '', '', p.counts, 0, 0, 0, 0, 0, 0
    FROM (SELECT DISTINCT * FROM unnest($3::text[], $4::int8[])) AS k(user_id, day)
    CROSS JOIN LATERAL (SELECT counts FROM usage_days x WHERE x.user_id = k.user_id AND x.day = k.day LIMIT 1) p
  UNION ALL
  SELECT 'n', n.device_id, n.num, '', '', '', NULL, 0, 0, 0, 0, 0, 0 FROM n`;

/**
 * The stored variants of (device, half-hour, source, model) groups, for the half-hours that hold
 * more rows than {@link SELECT_STORED} reads of one (rows stored before the bucket bound was
 * lowered), each device given by its id (the rows' `owner`) and its number, which
 * {@link SELECT_STORED} read. `OFFSET 0` keeps each lookup an index probe, as above.
 */
export const SELECT_GROUP_VARIANTS = `
  SELECT g.device_id AS owner, ${STORED_COLUMNS.split(', ')
    .map((c) => `b.${c}`)
    .join(', ')}
    FROM unnest($1::text[], $2::int8[], $3::int8[], $4::text[], $5::text[]) AS g(device_id, device_num, hour_start, source, model)
    CROSS JOIN LATERAL (
      SELECT ${STORED_COLUMNS} FROM usage_buckets x
       WHERE x.device_num = g.device_num AND x.hour_start = g.hour_start AND x.source = g.source AND x.model = g.model
      OFFSET 0) b`;

/**
 * Raw buckets by key, each device named by its number (read by {@link SELECT_STORED}). Each key is
 * found by a primary-key probe (a LATERAL `LIMIT`, as above) and its row deleted by its `ctid`: as
 * `DELETE … USING unnest(…)`, the plan a named statement made on a new server's empty tables was a
 * hash join over a sequential scan of every raw bucket, kept until the table was next analysed.
 */
export const DELETE_VARIANTS = `
  DELETE FROM usage_buckets b
   USING unnest($1::int8[], $2::int8[], $3::text[], $4::text[], $5::text[]) AS d(device_num, hour_start, source, model, project_key)
   CROSS JOIN LATERAL (
     SELECT ctid FROM usage_buckets x
      WHERE x.device_num = d.device_num AND x.hour_start = d.hour_start AND x.source = d.source
        AND x.model = d.model AND x.project_key = d.project_key
      LIMIT 1) x
   WHERE b.ctid = x.ctid`;

/** Raw buckets stored or replaced, each device named by its number (read by {@link SELECT_STORED}). */
export const UPSERT_BUCKETS = `
  INSERT INTO usage_buckets (device_num, updated_at, hour_start, source, model, project_key, project_ref,
                             input, cached_input, output, reasoning, total, billable)
  SELECT * FROM unnest($1::int8[], $2::int8[], $3::int8[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::int8[], $9::int8[], $10::int8[], $11::int8[], $12::int8[], $13::int8[])
  ON CONFLICT (device_num, hour_start, source, model, project_key) DO UPDATE SET
    project_ref = excluded.project_ref, input = excluded.input, cached_input = excluded.cached_input,
    output = excluded.output, reasoning = excluded.reasoning, total = excluded.total,
    billable = excluded.billable, updated_at = excluded.updated_at`;

export const ADD_ROLLUP = `
  INSERT INTO usage_rollup AS r (user_id, hour_start, source, model, input, cached_input, output, reasoning, total, billable)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[])
  ON CONFLICT (user_id, hour_start, source, model) DO UPDATE SET
    input = r.input + excluded.input, cached_input = r.cached_input + excluded.cached_input,
    output = r.output + excluded.output, reasoning = r.reasoning + excluded.reasoning,
    total = r.total + excluded.total, billable = r.billable + excluded.billable`;

export const ADD_PROJECTS = `
  INSERT INTO project_usage AS p (user_id, updated_at, project_key, source, project_ref, input, cached_input, output, reasoning, total, billable)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::text[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[], $11::int8[])
  ON CONFLICT (user_id, project_key, source) DO UPDATE SET
    project_ref = coalesce(excluded.project_ref, p.project_ref),
    input = p.input + excluded.input, cached_input = p.cached_input + excluded.cached_input,
    output = p.output + excluded.output, reasoning = p.reasoning + excluded.reasoning,
    total = p.total + excluded.total, billable = p.billable + excluded.billable, updated_at = excluded.updated_at`;

export const PUT_DAILY = `
  INSERT INTO usage_daily (user_id, day, source, model, input, cached_input, output, reasoning, total, billable, cost_micros)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[], $11::int8[])
  ON CONFLICT (user_id, day, source, model) DO UPDATE SET
    input = excluded.input, cached_input = excluded.cached_input, output = excluded.output,
    reasoning = excluded.reasoning, total = excluded.total, billable = excluded.billable, cost_micros = excluded.cost_micros`;

export const PUT_DAYS = `
  INSERT INTO usage_days (user_id, day, counts)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[])
  ON CONFLICT (user_id, day) DO UPDATE SET counts = excluded.counts`;

const addFamilies = (table: string, key: string | null) => `
  INSERT INTO ${table} AS t (user_id, ${key ? `${key}, ` : ''}gpt, claude, other)
  SELECT * FROM unnest($1::text[], ${key ? '$2::int8[], $3::int8[], $4::int8[], $5::int8[]' : '$2::int8[], $3::int8[], $4::int8[]'})
  ON CONFLICT (user_id${key ? `, ${key}` : ''}) DO UPDATE SET gpt = t.gpt + excluded.gpt, claude = t.claude + excluded.claude, other = t.other + excluded.other`;
export const ADD_WEEKS = addFamilies('leaderboard_user_weeks', 'week');
export const ADD_MONTHS = addFamilies('leaderboard_user_months', 'month');
export const ADD_TOTALS = addFamilies('leaderboard_user_totals', null);

export const TOUCH_DEVICES = `
  UPDATE devices d SET last_seen_at = u.now, last_sync_at = u.now, last_upload_at = u.now
    FROM unnest($1::text[], $2::int8[]) AS u(id, now) WHERE d.id = u.id`;

export const INSERT_EVENTS = `
  INSERT INTO ingest_events (device_id, user_id, bucket_count, inserted, skipped, created_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[], $5::int8[], $6::int8[])`;

export const CLEAR_SUBSCRIPTIONS = 'DELETE FROM device_subscriptions WHERE device_id = ANY($1::text[])';
export const INSERT_SUBSCRIPTIONS = `
  INSERT INTO device_subscriptions (device_id, user_id, updated_at, position, tool, provider, product, plan_type, rate_limit_tier, details)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])`;

export interface Piece {
  sql: string;
  params: unknown[];
}

/**
 * Joins independent writes into one statement of data-modifying CTEs (one round trip), renumbering
 * each piece's $n placeholders. The pieces touch different rows, so their order does not matter.
 */
export function combineWrites(pieces: readonly Piece[], final: Piece): Piece {
  const params: unknown[] = [];
  const renumber = (piece: Piece): string => {
    const offset = params.length;
    params.push(...piece.params);
    return piece.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`);
  };
  const ctes = pieces.map((piece, i) => `w${i} AS (${renumber(piece)})`);
  const main = renumber(final);
  return { sql: ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n${main}` : main, params };
}
