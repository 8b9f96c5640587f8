/**
 * @fileoverview The PostgreSQL ingest writer: one transaction of set-based statements over
 * `unnest` arrays (one statement shape whatever the batch size), serialised per user with a
 * transaction-scoped advisory lock so concurrent uploads never race on the deltas. Four round
 * trips: BEGIN with the lock; one read of the stored variants and of the `usage_daily` rows the
 * upload may change; every write (buckets, rollup, projects, the derived read models) joined into
 * one statement; COMMIT.
 */
import type { PoolClient } from 'pg';
import type { PostgresDb } from '../db/connect.js';
import { preparedName } from '../db/prepared-name.js';
import { DAY_MS } from '../domain/calendar.js';
import type { TokenSums } from '../domain/token-sums.js';
import { groupsOf, planIngest, type StoredVariant } from './plan.js';
import { deriveReadModelDeltas, nextDailyRow, type PeriodDelta } from './read-model-deltas.js';
import type { IngestBatch, IngestResult, IngestWriter, RowCoster } from './store.js';
import { STORED_COLUMNS, toStoredVariant, type StoredRow } from './stored-row.js';

/**
 * The stored variants of the upload's groups (`kind` 'b') and, in the same round trip, the
 * `usage_daily` rows of the (day, source, model) keys they fall in (`kind` 'd', `hour_start` = day).
 */
const SELECT_STORED = `
  SELECT 'b' AS kind, ${STORED_COLUMNS.split(', ').map((c) => `b.${c}`).join(', ')}
    FROM usage_buckets b
    JOIN unnest($2::int8[], $3::text[], $4::text[]) AS g(hour_start, source, model)
      ON b.hour_start = g.hour_start AND b.source = g.source AND b.model = g.model
   WHERE b.device_id = $1
  UNION ALL
  SELECT 'd', d.day, d.source, d.model, '', NULL, d.input, d.cached_input, d.output, d.reasoning, d.total, d.billable
    FROM usage_daily d
    JOIN (SELECT DISTINCT * FROM unnest($6::int8[], $3::text[], $4::text[])) AS k(day, source, model)
      ON d.day = k.day AND d.source = k.source AND d.model = k.model
   WHERE d.user_id = $5`;

const PUT_DAILY = `
  INSERT INTO usage_daily (user_id, day, source, model, input, cached_input, output, reasoning, total, billable, cost_micros)
  SELECT $1, * FROM unnest($2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[], $11::int8[])
  ON CONFLICT (user_id, day, source, model) DO UPDATE SET
    input = excluded.input, cached_input = excluded.cached_input, output = excluded.output,
    reasoning = excluded.reasoning, total = excluded.total, billable = excluded.billable, cost_micros = excluded.cost_micros`;

const ADD_PREFIX = `
  INSERT INTO usage_day_prefix AS p (user_id, k, day, input, cached_input, output, reasoning, total, billable)
  SELECT $1, * FROM unnest($2::int8[], $3::int8[], $4::int8[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[])
  ON CONFLICT (user_id, k, day) DO UPDATE SET
    input = p.input + excluded.input, cached_input = p.cached_input + excluded.cached_input,
    output = p.output + excluded.output, reasoning = p.reasoning + excluded.reasoning,
    total = p.total + excluded.total, billable = p.billable + excluded.billable`;

const addFamilies = (table: string, key: string) => `
  INSERT INTO ${table} AS t (user_id, ${key}, gpt, claude, other)
  SELECT $1, * FROM unnest($2::int8[], $3::int8[], $4::int8[], $5::int8[])
  ON CONFLICT (user_id, ${key}) DO UPDATE SET gpt = t.gpt + excluded.gpt, claude = t.claude + excluded.claude, other = t.other + excluded.other`;
const ADD_WEEKS = addFamilies('leaderboard_user_weeks', 'week');
const ADD_MONTHS = addFamilies('leaderboard_user_months', 'month');
const ADD_TOTAL = `
  INSERT INTO leaderboard_user_totals AS t (user_id, gpt, claude, other) VALUES ($1, $2, $3, $4)
  ON CONFLICT (user_id) DO UPDATE SET gpt = t.gpt + excluded.gpt, claude = t.claude + excluded.claude, other = t.other + excluded.other`;

const DELETE_VARIANTS = `
  DELETE FROM usage_buckets b
   USING unnest($2::int8[], $3::text[], $4::text[], $5::text[]) AS d(hour_start, source, model, project_key)
   WHERE b.device_id = $1 AND b.hour_start = d.hour_start AND b.source = d.source
     AND b.model = d.model AND b.project_key = d.project_key`;

const UPSERT_BUCKETS = `
  INSERT INTO usage_buckets (device_id, user_id, updated_at, hour_start, source, model, project_key, project_ref,
                             input, cached_input, output, reasoning, total, billable)
  SELECT $1, $2, $3, * FROM unnest($4::int8[], $5::text[], $6::text[], $7::text[], $8::text[],
                                   $9::int8[], $10::int8[], $11::int8[], $12::int8[], $13::int8[], $14::int8[])
  ON CONFLICT (device_id, hour_start, source, model, project_key) DO UPDATE SET
    project_ref = excluded.project_ref, input = excluded.input, cached_input = excluded.cached_input,
    output = excluded.output, reasoning = excluded.reasoning, total = excluded.total,
    billable = excluded.billable, updated_at = excluded.updated_at`;

const ADD_ROLLUP = `
  INSERT INTO usage_rollup AS r (user_id, hour_start, source, model, input, cached_input, output, reasoning, total, billable)
  SELECT $1, * FROM unnest($2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[])
  ON CONFLICT (user_id, hour_start, source, model) DO UPDATE SET
    input = r.input + excluded.input, cached_input = r.cached_input + excluded.cached_input,
    output = r.output + excluded.output, reasoning = r.reasoning + excluded.reasoning,
    total = r.total + excluded.total, billable = r.billable + excluded.billable`;

const ADD_PROJECTS = `
  INSERT INTO project_usage AS p (user_id, updated_at, project_key, source, project_ref, input, cached_input, output, reasoning, total, billable)
  SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[], $11::int8[])
  ON CONFLICT (user_id, project_key, source) DO UPDATE SET
    project_ref = coalesce(excluded.project_ref, p.project_ref),
    input = p.input + excluded.input, cached_input = p.cached_input + excluded.cached_input,
    output = p.output + excluded.output, reasoning = p.reasoning + excluded.reasoning,
    total = p.total + excluded.total, billable = p.billable + excluded.billable, updated_at = excluded.updated_at`;

interface Piece {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The advisory-lock key (hashed with `hashtextextended(key, 0)`) that serialises one user's uploads — and repricing of that user's costs. */
export function userIngestLockKey(userId: string): string {
  return `ingest:${userId}`;
}
const MAX_ATTEMPTS = 3;

/** deadlock_detected and serialization_failure: the transaction may simply be run again. */
function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

interface StoredState {
  variants: StoredVariant[];
  /** Stored `usage_daily` counts by `day\0source\0model`. */
  daily: Map<string, TokenSums>;
}

const dailyKey = (day: number, source: string, model: string) => `${day}\u0000${source}\u0000${model}`;

export class PostgresIngestWriter implements IngestWriter {
  constructor(
    private readonly db: PostgresDb,
    private readonly costOf: RowCoster,
  ) {}

  async apply(batch: IngestBatch): Promise<IngestResult> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.applyOnce(batch);
      } catch (error) {
        // Uploads are serialised per user, so this should not happen; if PostgreSQL still picks
        // this transaction as a deadlock or serialization victim, it is safe to run it again.
        if (attempt < MAX_ATTEMPTS && isRetryable(error)) continue;
        throw error;
      }
    }
  }

  private async applyOnce(batch: IngestBatch): Promise<IngestResult> {
    const client = await this.db.pool.connect();
    try {
      // Uploads of one user are serialised: every read model the upload touches (rollup, daily and
      // leaderboard aggregates) is keyed by user, so concurrent uploads never race on deltas or
      // lock the same rows in different orders. User ids are server-made UUIDs; anything else
      // takes the parameterised path.
      if (UUID.test(batch.userId)) {
        await client.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('${userIngestLockKey(batch.userId)}', 0))`);
      } else {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [userIngestLockKey(batch.userId)]);
      }
      const result = await this.write(client, batch);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async loadStored(client: PoolClient, batch: IngestBatch): Promise<StoredState> {
    const groups = groupsOf(batch.buckets);
    const state: StoredState = { variants: [], daily: new Map() };
    if (groups.length === 0) return state;
    const { rows } = await client.query<StoredRow & { kind: 'b' | 'd' }>({
      name: preparedName(SELECT_STORED),
      text: SELECT_STORED,
      values: [
        batch.deviceId,
        groups.map((g) => g.hourStart),
        groups.map((g) => g.source),
        groups.map((g) => g.model),
        batch.userId,
        groups.map((g) => Math.floor(g.hourStart / DAY_MS)),
      ],
    });
    for (const row of rows) {
      if (row.kind === 'b') {
        state.variants.push(toStoredVariant(row));
      } else {
        const sums: TokenSums = { input: row.input, cached: row.cached_input, output: row.output, reasoning: row.reasoning, total: row.total, billable: row.billable };
        state.daily.set(dailyKey(Number(row.hour_start), row.source, row.model), sums);
      }
    }
    return state;
  }

  private async write(client: PoolClient, batch: IngestBatch): Promise<IngestResult> {
    const { userId, deviceId, now } = batch;
    const stored = await this.loadStored(client, batch);
    const plan = planIngest(batch.buckets, stored.variants);
    const pieces: Piece[] = [];
    if (plan.deletes.length > 0) {
      const d = plan.deletes;
      pieces.push({ sql: DELETE_VARIANTS, params: [deviceId, d.map((x) => x.hourStart), d.map((x) => x.source), d.map((x) => x.model), d.map((x) => x.projectKey)] });
    }
    if (plan.upserts.length > 0) {
      const u = plan.upserts;
      pieces.push({
        sql: UPSERT_BUCKETS,
        params: [
          deviceId, userId, now,
          u.map((x) => x.hourStart), u.map((x) => x.source), u.map((x) => x.model), u.map((x) => x.projectKey), u.map((x) => x.projectRef),
          u.map((x) => x.input), u.map((x) => x.cached), u.map((x) => x.output), u.map((x) => x.reasoning), u.map((x) => x.total), u.map((x) => x.billable),
        ],
      });
    }
    if (plan.rollup.length > 0) {
      const r = plan.rollup;
      pieces.push({
        sql: ADD_ROLLUP,
        params: [
          userId, r.map((x) => x.hourStart), r.map((x) => x.source), r.map((x) => x.model),
          r.map((x) => x.input), r.map((x) => x.cached), r.map((x) => x.output), r.map((x) => x.reasoning), r.map((x) => x.total), r.map((x) => x.billable),
        ],
      });
    }
    if (plan.projects.length > 0) {
      const p = plan.projects;
      pieces.push({
        sql: ADD_PROJECTS,
        params: [
          userId, now, p.map((x) => x.projectKey), p.map((x) => x.source), p.map((x) => x.projectRef),
          p.map((x) => x.input), p.map((x) => x.cached), p.map((x) => x.output), p.map((x) => x.reasoning), p.map((x) => x.total), p.map((x) => x.billable),
        ],
      });
    }
    const derived = deriveReadModelDeltas(plan.rollup);
    if (derived.daily.length > 0) {
      const rows = derived.daily.map((d) => ({ d, next: nextDailyRow(stored.daily.get(dailyKey(d.day, d.source, d.model)), d, this.costOf) }));
      pieces.push({
        sql: PUT_DAILY,
        params: [
          userId, rows.map((r) => r.d.day), rows.map((r) => r.d.source), rows.map((r) => r.d.model),
          rows.map((r) => r.next.input), rows.map((r) => r.next.cached), rows.map((r) => r.next.output), rows.map((r) => r.next.reasoning),
          rows.map((r) => r.next.total), rows.map((r) => r.next.billable), rows.map((r) => r.next.costMicros),
        ],
      });
    }
    if (derived.prefix.length > 0) {
      const p = derived.prefix;
      pieces.push({
        sql: ADD_PREFIX,
        params: [userId, p.map((x) => x.k), p.map((x) => x.day), p.map((x) => x.input), p.map((x) => x.cached), p.map((x) => x.output), p.map((x) => x.reasoning), p.map((x) => x.total), p.map((x) => x.billable)],
      });
    }
    const periods = (sqlText: string, list: readonly PeriodDelta[]) => {
      if (list.length > 0) pieces.push({ sql: sqlText, params: [userId, list.map((x) => x.period), list.map((x) => x.gpt), list.map((x) => x.claude), list.map((x) => x.other)] });
    };
    periods(ADD_WEEKS, derived.weeks);
    periods(ADD_MONTHS, derived.months);
    if (derived.total) pieces.push({ sql: ADD_TOTAL, params: [userId, derived.total.gpt, derived.total.claude, derived.total.other] });
    pieces.push({ sql: 'UPDATE devices SET last_seen_at = $1, last_sync_at = $1 WHERE id = $2', params: [now, deviceId] });
    const event: Piece = {
      sql: 'INSERT INTO ingest_events (device_id, user_id, bucket_count, inserted, skipped, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      params: [deviceId, userId, batch.buckets.length, plan.counts.inserted, plan.counts.skipped, now],
    };
    const combined = combineWrites(pieces, event);
    await client.query({ name: preparedName(combined.sql), text: combined.sql, values: combined.params });
    if (batch.subscriptions) {
      await client.query('DELETE FROM device_subscriptions WHERE device_id = $1', [deviceId]);
      const subs = batch.subscriptions;
      if (subs.length > 0) {
        await client.query(
          `INSERT INTO device_subscriptions (device_id, user_id, updated_at, position, tool, provider, product, plan_type, rate_limit_tier, details)
           SELECT $1, $2, $3, * FROM unnest($4::int8[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])`,
          [deviceId, userId, now, subs.map((_, i) => i), subs.map((s) => s.tool), subs.map((s) => s.provider), subs.map((s) => s.product),
            subs.map((s) => s.planType), subs.map((s) => s.rateLimitTier), subs.map((s) => s.details)],
        );
      }
    }
    return plan.counts;
  }
}
