/**
 * @fileoverview The PostgreSQL ingest writer's writes (src/ingest/postgres/group-write.ts): each
 * table's rows (ingest-rows.ts) as `unnest` arrays, every write of a group joined into one
 * statement of data-modifying CTEs (`combineWrites`, ingest-postgres.ts) sent on the caller's
 * transaction, and the subscriptions' two statements when an upload mentions them. A statement
 * and the order of its parameters live here only.
 */
import type { PoolClient } from 'pg';
import { arrayColumns } from '../pg-arrays.js';
import { preparedName } from '../prepared-name.js';
import { combineWrites, type Fragment } from './ingest-postgres.js';
import type {
  DeviceDayRow,
  PeriodRow,
  SubscriptionRow,
  TeamDailyRow,
  TeamSpanRow,
  TeamReadModels,
  TeamRollupRow,
  UploadRow,
  UserReadModels,
} from './ingest-rows.js';
import { otlpStateFragments, type OtlpStateChanges } from './otlp-writes.js';

/** Each changed (device, UTC day)'s raw buckets, packed whole (domain/device-day-buckets.ts). */
const PUT_DEVICE_DAYS = `
  INSERT INTO usage_device_days (device_num, day, buckets, updated_at)
  SELECT * FROM unnest($1::int8[], $2::int8[], $3::text[], $4::int8[])
  ON CONFLICT (device_num, day) DO UPDATE SET buckets = excluded.buckets, updated_at = excluded.updated_at`;

/** Each user's change to their count of stored raw buckets (migration 0017). */
const ADD_STORED = `
  INSERT INTO user_storage AS s (user_id, stored_buckets)
  SELECT * FROM unnest($1::text[], $2::int8[])
  ON CONFLICT (user_id) DO UPDATE SET stored_buckets = s.stored_buckets + excluded.stored_buckets`;

const ADD_ROLLUP = `
  INSERT INTO usage_rollup AS r (user_id, hour_start, source, model, input, cached_input, output, reasoning, total, billable)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[])
  ON CONFLICT (user_id, hour_start, source, model) DO UPDATE SET
    input = r.input + excluded.input, cached_input = r.cached_input + excluded.cached_input,
    output = r.output + excluded.output, reasoning = r.reasoning + excluded.reasoning,
    total = r.total + excluded.total, billable = r.billable + excluded.billable`;

const ADD_PROJECTS = `
  INSERT INTO project_usage AS p (user_id, updated_at, project_key, source, project_ref, input, cached_input, output, reasoning, total, billable)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::text[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[], $11::int8[])
  ON CONFLICT (user_id, project_key, source) DO UPDATE SET
    project_ref = coalesce(excluded.project_ref, p.project_ref),
    input = p.input + excluded.input, cached_input = p.cached_input + excluded.cached_input,
    output = p.output + excluded.output, reasoning = p.reasoning + excluded.reasoning,
    total = p.total + excluded.total, billable = p.billable + excluded.billable, updated_at = excluded.updated_at`;

const PUT_DAILY = `
  INSERT INTO usage_daily (user_id, day, source, model, input, cached_input, output, reasoning, total, billable, cost_micros)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[], $11::int8[])
  ON CONFLICT (user_id, day, source, model) DO UPDATE SET
    input = excluded.input, cached_input = excluded.cached_input, output = excluded.output,
    reasoning = excluded.reasoning, total = excluded.total, billable = excluded.billable, cost_micros = excluded.cost_micros`;

/** Each changed (user, block, source, model)'s change of counts and stored cost (migration 0027). */
const ADD_BLOCKS = `
  INSERT INTO usage_blocks AS b (user_id, block, source, model, input, cached_input, output, reasoning, total, billable, cost_micros)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[], $10::int8[], $11::int8[])
  ON CONFLICT (user_id, block, source, model) DO UPDATE SET
    input = b.input + excluded.input, cached_input = b.cached_input + excluded.cached_input,
    output = b.output + excluded.output, reasoning = b.reasoning + excluded.reasoning,
    total = b.total + excluded.total, billable = b.billable + excluded.billable,
    cost_micros = b.cost_micros + excluded.cost_micros`;

const PUT_DAYS = `
  INSERT INTO usage_days (user_id, day, counts)
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[])
  ON CONFLICT (user_id, day) DO UPDATE SET counts = excluded.counts`;

/**
 * The users' teams' rows (migration 0029), each change summed over the group's members of the team
 * (core/team-deltas.ts), added in key order: groups of different members of one team upsert the
 * same rows, and in one order (this one, and the membership changes' in db/queries/team-usage-model.ts)
 * they wait for each other's row locks without deadlocking. So each table is its own statement,
 * rollup, spans, daily, after the joined statement: the order in which PostgreSQL runs the CTEs of
 * one statement is its own.
 */
const addTeamSums = (table: string, time: string, summed: readonly string[]) => `
  INSERT INTO ${table} AS t (team_id, ${time}, source, model, ${summed.join(', ')})
  SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], ${summed.map((_, i) => `$${i + 5}::int8[]`).join(', ')})
    AS u(team_id, ${time}, source, model, ${summed.join(', ')})
   ORDER BY team_id, ${time}, source, model
  ON CONFLICT (team_id, ${time}, source, model) DO UPDATE SET
    ${summed.map((c) => `${c} = t.${c} + excluded.${c}`).join(', ')}`;
const TEAM_COUNTS = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'];
const ADD_TEAM_ROLLUP = addTeamSums('team_usage_rollup', 'hour_start', TEAM_COUNTS);
const ADD_TEAM_SPANS = addTeamSums('team_usage_spans', 'span_start', TEAM_COUNTS);
const ADD_TEAM_DAILY = addTeamSums('team_usage_daily', 'day', [...TEAM_COUNTS, 'cost_micros']);

/** Billable tokens and stored cost (micro-dollars) per family, added (domain/leaderboard-periods.ts). */
const addFamilies = (table: string, key: string | null) => {
  const arrays = Array.from({ length: key ? 7 : 6 }, (_, i) => `$${i + 2}::int8[]`).join(', ');
  return `
  INSERT INTO ${table} AS t (user_id, ${key ? `${key}, ` : ''}gpt, claude, other, gpt_cost, claude_cost, other_cost)
  SELECT * FROM unnest($1::text[], ${arrays})
  ON CONFLICT (user_id${key ? `, ${key}` : ''}) DO UPDATE SET gpt = t.gpt + excluded.gpt, claude = t.claude + excluded.claude, other = t.other + excluded.other,
    gpt_cost = t.gpt_cost + excluded.gpt_cost, claude_cost = t.claude_cost + excluded.claude_cost, other_cost = t.other_cost + excluded.other_cost`;
};
const ADD_WEEKS = addFamilies('leaderboard_user_weeks', 'week');
const ADD_MONTHS = addFamilies('leaderboard_user_months', 'month');
const ADD_TOTALS = addFamilies('leaderboard_user_totals', null);

const TOUCH_DEVICES = `
  UPDATE devices d SET last_seen_at = u.now, last_sync_at = u.now, last_upload_at = u.now
    FROM unnest($1::text[], $2::int8[]) AS u(id, now) WHERE d.id = u.id`;

const INSERT_EVENTS = `
  INSERT INTO ingest_events (device_id, user_id, bucket_count, inserted, skipped, created_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[], $5::int8[], $6::int8[])`;

const CLEAR_SUBSCRIPTIONS = 'DELETE FROM device_subscriptions WHERE device_id = ANY($1::text[])';
const INSERT_SUBSCRIPTIONS = `
  INSERT INTO device_subscriptions (device_id, user_id, updated_at, position, tool, provider, product, plan_type, rate_limit_tier, details)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])`;

/** Everything a group writes; `uploads` are the stored ones, in order. */
export interface IngestWrites {
  readonly deviceDays: readonly DeviceDayRow[];
  readonly readModels: readonly UserReadModels[];
  /** The users' teams' rows (none when no user of the group is in a team). */
  readonly teams: TeamReadModels;
  readonly uploads: readonly UploadRow[];
  /** The OTLP state of each stored export that carries one. */
  readonly otlp: ReadonlyArray<{ deviceId: string; now: number; otlp: OtlpStateChanges }>;
  /** The devices whose subscriptions the uploads replace (their whole lists in `rows`). */
  readonly subscriptions: { readonly deviceIds: readonly string[]; readonly rows: readonly SubscriptionRow[] };
}

/** A user's row: the user id is a column of its own in every read-model statement. */
interface Owned<T> {
  readonly userId: string;
  readonly row: T;
}

/** Each user's rows of one table, with their user. */
function owned<T>(users: readonly UserReadModels[], rowsOf: (u: UserReadModels) => readonly T[]): Owned<T>[] {
  const out: Owned<T>[] = [];
  for (const u of users) for (const row of rowsOf(u)) out.push({ userId: u.userId, row });
  return out;
}

const periods = (rows: readonly Owned<PeriodRow>[], withPeriod: boolean): string[] =>
  arrayColumns(
    rows,
    (x) => x.userId,
    ...(withPeriod ? [(x: Owned<PeriodRow>) => x.row.period] : []),
    (x) => x.row.gpt,
    (x) => x.row.claude,
    (x) => x.row.other,
    (x) => x.row.gptCost,
    (x) => x.row.claudeCost,
    (x) => x.row.otherCost,
  );

/** The writes of a group's rows, in the order they join (any order would do: they touch different rows). */
function fragmentsOf(w: IngestWrites): Fragment[] {
  const users = w.readModels;
  const fragments: Fragment[] = [];
  const add = <T>(rows: readonly T[], sql: string, params: (rows: readonly T[]) => unknown[]): void => {
    if (rows.length > 0) fragments.push({ sql, params: params(rows) });
  };
  add(w.deviceDays, PUT_DEVICE_DAYS, (rows) =>
    arrayColumns(
      rows,
      (d) => d.deviceNum,
      (d) => d.day,
      (d) => d.packed,
      (d) => d.now,
    ),
  );
  add(
    users.filter((u) => u.storedRows !== 0),
    ADD_STORED,
    (rows) =>
      arrayColumns(
        rows,
        (x) => x.userId,
        (x) => x.storedRows,
      ),
  );
  add(
    owned(users, (u) => u.rollup),
    ADD_ROLLUP,
    (rows) =>
      arrayColumns(
        rows,
        (x) => x.userId,
        (x) => x.row.hourStart,
        (x) => x.row.source,
        (x) => x.row.model,
        (x) => x.row.input,
        (x) => x.row.cached,
        (x) => x.row.output,
        (x) => x.row.reasoning,
        (x) => x.row.total,
        (x) => x.row.billable,
      ),
  );
  add(
    owned(users, (u) => u.projects),
    ADD_PROJECTS,
    (rows) =>
      arrayColumns(
        rows,
        (x) => x.userId,
        (x) => x.row.updatedAt,
        (x) => x.row.projectKey,
        (x) => x.row.source,
        (x) => x.row.projectRef,
        (x) => x.row.input,
        (x) => x.row.cached,
        (x) => x.row.output,
        (x) => x.row.reasoning,
        (x) => x.row.total,
        (x) => x.row.billable,
      ),
  );
  add(
    owned(users, (u) => u.daily),
    PUT_DAILY,
    (rows) =>
      arrayColumns(
        rows,
        (x) => x.userId,
        (x) => x.row.day,
        (x) => x.row.source,
        (x) => x.row.model,
        (x) => x.row.input,
        (x) => x.row.cached,
        (x) => x.row.output,
        (x) => x.row.reasoning,
        (x) => x.row.total,
        (x) => x.row.billable,
        (x) => x.row.costMicros,
      ),
  );
  add(
    owned(users, (u) => u.blocks),
    ADD_BLOCKS,
    (rows) =>
      arrayColumns(
        rows,
        (x) => x.userId,
        (x) => x.row.block,
        (x) => x.row.source,
        (x) => x.row.model,
        (x) => x.row.input,
        (x) => x.row.cached,
        (x) => x.row.output,
        (x) => x.row.reasoning,
        (x) => x.row.total,
        (x) => x.row.billable,
        (x) => x.row.costMicros,
      ),
  );
  add(
    owned(users, (u) => u.days),
    PUT_DAYS,
    (rows) =>
      arrayColumns(
        rows,
        (x) => x.userId,
        (x) => x.row.day,
        (x) => x.row.packed,
      ),
  );
  add(
    owned(users, (u) => u.weeks),
    ADD_WEEKS,
    (rows) => periods(rows, true),
  );
  add(
    owned(users, (u) => u.months),
    ADD_MONTHS,
    (rows) => periods(rows, true),
  );
  add(
    owned(users, (u) => (u.total ? [{ period: 0, ...u.total }] : [])),
    ADD_TOTALS,
    (rows) => periods(rows, false),
  );
  add(w.uploads, TOUCH_DEVICES, (rows) =>
    arrayColumns(
      rows,
      (x) => x.deviceId,
      (x) => x.now,
    ),
  );
  if (w.otlp.length > 0) fragments.push(...otlpStateFragments(w.otlp));
  return fragments;
}

/** Sends one team table's rows: key (`time`: the half-hour or the day), counts, and `more` (the daily rows' cost). */
function sendTeamSums<T extends TeamRollupRow | TeamSpanRow | TeamDailyRow>(
  client: PoolClient,
  text: string,
  rows: readonly T[],
  time: (row: T) => number,
  ...more: ((row: T) => bigint)[]
): Promise<unknown> {
  const values = arrayColumns(
    rows,
    (x) => x.teamId,
    time,
    (x) => x.source,
    (x) => x.model,
    (x) => x.input,
    (x) => x.cached,
    (x) => x.output,
    (x) => x.reasoning,
    (x) => x.total,
    (x) => x.billable,
    ...more,
  );
  return client.query({ name: preparedName(text), text, values });
}

/**
 * Sends every write of a group on the caller's transaction, without waiting: one statement of
 * data-modifying CTEs (the uploads' events its final statement), then the teams' three statements
 * when a user of the group is in a team, and the subscriptions' two when an upload mentions them.
 * Settles when the database has answered them all; the caller may queue COMMIT behind them first.
 * Nothing is sent when no upload was stored.
 */
export function sendIngestWrites(client: PoolClient, writes: IngestWrites): Promise<void> {
  if (writes.uploads.length === 0) return Promise.resolve();
  const events: Fragment = {
    sql: INSERT_EVENTS,
    params: arrayColumns(
      writes.uploads,
      (x) => x.deviceId,
      (x) => x.userId,
      (x) => x.bucketCount,
      (x) => x.inserted,
      (x) => x.skipped,
      (x) => x.now,
    ),
  };
  const combined = combineWrites(fragmentsOf(writes), events);
  const sent: Promise<unknown>[] = [
    client.query({ name: preparedName(combined.sql), text: combined.sql, values: combined.params }),
  ];
  const { rollup, spans, daily } = writes.teams;
  if (rollup.length > 0) sent.push(sendTeamSums(client, ADD_TEAM_ROLLUP, rollup, (x) => x.hourStart));
  if (spans.length > 0) sent.push(sendTeamSums(client, ADD_TEAM_SPANS, spans, (x) => x.spanStart));
  if (daily.length > 0)
    sent.push(
      sendTeamSums(
        client,
        ADD_TEAM_DAILY,
        daily,
        (x) => x.day,
        (x) => x.costMicros,
      ),
    );
  const { deviceIds, rows } = writes.subscriptions;
  if (deviceIds.length > 0) {
    sent.push(
      client.query({ name: preparedName(CLEAR_SUBSCRIPTIONS), text: CLEAR_SUBSCRIPTIONS, values: [deviceIds] }),
    );
    if (rows.length > 0) {
      sent.push(
        client.query({
          name: preparedName(INSERT_SUBSCRIPTIONS),
          text: INSERT_SUBSCRIPTIONS,
          values: arrayColumns(
            rows,
            (x) => x.deviceId,
            (x) => x.userId,
            (x) => x.now,
            (x) => x.position,
            (x) => x.tool,
            (x) => x.provider,
            (x) => x.product,
            (x) => x.planType,
            (x) => x.rateLimitTier,
            (x) => x.details,
          ),
        }),
      );
    }
  }
  return Promise.all(sent).then(() => undefined);
}
