/**
 * @fileoverview The SQLite ingest writer's statements (src/ingest/sqlite/group-write.ts), prepared
 * once per connection on better-sqlite3: the hot path of every upload, so no query builder
 * (docs/architecture.md, "SQL"). Each write takes row objects (ingest-rows.ts): a statement and
 * the order of its parameters live here only.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { CountColumns } from '../token-columns.js';
import type { TokenCounts } from '../../domain/token-counts.js';
import type { FamilyDelta } from '../../domain/leaderboard-periods.js';
import type { DeviceDayRow, SubscriptionRow, TeamReadModels, UploadRow, UserReadModels } from './ingest-rows.js';

/** A stored `usage_daily` row: its counts and cost. */
export interface StoredDaily extends TokenCounts {
  readonly costMicros: bigint;
}

/** The prepared statements of one connection's ingest writer. */
export function prepareIngestStatements(s: BetterSqlite3.Database) {
  // A device's raw buckets of one UTC day, packed in one row (domain/device-day-buckets.ts).
  const selectDeviceDay = s
    .prepare<[bigint, number], string>(`SELECT buckets FROM usage_device_days WHERE device_num = ? AND day = ?`)
    .pluck(true);
  const selectDay = s
    .prepare<[string, number], string>(`SELECT counts FROM usage_days WHERE user_id = ? AND day = ?`)
    .pluck(true);
  const putDeviceDay = s.prepare<[bigint, number, string, number]>(
    `INSERT INTO usage_device_days (device_num, day, buckets, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (device_num, day) DO UPDATE SET buckets = excluded.buckets, updated_at = excluded.updated_at`,
  );
  // The account's count of stored raw buckets (migration 0017): read for a growing upload, added to once per user and group.
  const selectStored = s
    .prepare<[string], bigint>(`SELECT stored_buckets FROM user_storage WHERE user_id = ?`)
    .pluck(true);
  const addStored = s.prepare<[string, number]>(
    `INSERT INTO user_storage (user_id, stored_buckets) VALUES (?, ?)
     ON CONFLICT (user_id) DO UPDATE SET stored_buckets = stored_buckets + excluded.stored_buckets`,
  );
  const addRollup = s.prepare(
    `INSERT INTO usage_rollup (user_id, hour_start, source, model, input, cached_input, output, reasoning, total, billable)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, hour_start, source, model) DO UPDATE SET
       input = input + excluded.input, cached_input = cached_input + excluded.cached_input,
       output = output + excluded.output, reasoning = reasoning + excluded.reasoning,
       total = total + excluded.total, billable = billable + excluded.billable`,
  );
  const addProject = s
    .prepare(
      `INSERT INTO project_usage (user_id, project_key, source, project_ref, input, cached_input, output, reasoning, total, billable, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, project_key, source) DO UPDATE SET
       project_ref = coalesce(excluded.project_ref, project_ref),
       input = input + excluded.input, cached_input = cached_input + excluded.cached_input,
       output = output + excluded.output, reasoning = reasoning + excluded.reasoning,
       total = total + excluded.total, billable = billable + excluded.billable, updated_at = excluded.updated_at
     RETURNING typeof(input + cached_input + output + reasoning + total + billable)`,
    )
    .pluck(true);
  const selectDaily = s.prepare<[string, number, string, string], CountColumns & { cost_micros: bigint }>(
    `SELECT input, cached_input, output, reasoning, total, billable, cost_micros FROM usage_daily WHERE user_id = ? AND day = ? AND source = ? AND model = ?`,
  );
  const putDaily = s.prepare(
    `INSERT INTO usage_daily (user_id, day, source, model, input, cached_input, output, reasoning, total, billable, cost_micros)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, day, source, model) DO UPDATE SET
       input = excluded.input, cached_input = excluded.cached_input, output = excluded.output,
       reasoning = excluded.reasoning, total = excluded.total, billable = excluded.billable, cost_micros = excluded.cost_micros`,
  );
  // A block sums 16 days: like the leaderboard's weeks, its sum is checked (`writeReadModels`).
  const addBlock = s
    .prepare(
      `INSERT INTO usage_blocks (user_id, block, source, model, input, cached_input, output, reasoning, total, billable, cost_micros)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, block, source, model) DO UPDATE SET
       input = input + excluded.input, cached_input = cached_input + excluded.cached_input,
       output = output + excluded.output, reasoning = reasoning + excluded.reasoning,
       total = total + excluded.total, billable = billable + excluded.billable, cost_micros = cost_micros + excluded.cost_micros
     RETURNING typeof(input + cached_input + output + reasoning + total + billable + cost_micros)`,
    )
    .pluck(true);
  const putDay = s.prepare(
    `INSERT INTO usage_days (user_id, day, counts) VALUES (?, ?, ?) ON CONFLICT (user_id, day) DO UPDATE SET counts = excluded.counts`,
  );
  // Billable tokens and stored cost (micro-dollars) per family, added (domain/leaderboard-periods.ts).
  const addFamilies = (table: string, key: string) =>
    s
      .prepare(
        `INSERT INTO ${table} (user_id${key ? `, ${key}` : ''}, gpt, claude, other, gpt_cost, claude_cost, other_cost) VALUES (?${key ? ', ?' : ''}, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id${key ? `, ${key}` : ''}) DO UPDATE SET gpt = gpt + excluded.gpt, claude = claude + excluded.claude, other = other + excluded.other,
         gpt_cost = gpt_cost + excluded.gpt_cost, claude_cost = claude_cost + excluded.claude_cost, other_cost = other_cost + excluded.other_cost
       RETURNING typeof(gpt + claude + other + gpt_cost + claude_cost + other_cost)`,
      )
      .pluck(true);
  const addWeek = addFamilies('leaderboard_user_weeks', 'week');
  const addMonth = addFamilies('leaderboard_user_months', 'month');
  const addTotal = addFamilies('leaderboard_user_totals', '');
  // The team-side read model (migrations 0029, 0030): the user's teams (by team_members_user), their rows added to.
  const selectTeams = s.prepare<[string], string>(`SELECT team_id FROM team_members WHERE user_id = ?`).pluck(true);
  const addTeamSums = (table: string, time: string, summed: readonly string[]) =>
    s
      .prepare(
        `INSERT INTO ${table} (team_id, ${time}, source, model, ${summed.join(', ')})
       VALUES (?, ?, ?, ?, ${summed.map(() => '?').join(', ')})
       ON CONFLICT (team_id, ${time}, source, model) DO UPDATE SET
         ${summed.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}
       RETURNING typeof(${summed.join(' + ')})`,
      )
      .pluck(true);
  const teamCounts = ['input', 'cached_input', 'output', 'reasoning', 'total', 'billable'];
  const addTeamRollup = addTeamSums('team_usage_rollup', 'hour_start', teamCounts);
  const addTeamSpans = addTeamSums('team_usage_spans', 'span_start', teamCounts);
  const addTeamDaily = addTeamSums('team_usage_daily', 'day', [...teamCounts, 'cost_micros']);
  // Touched first: it answers the device's number, which its raw buckets are keyed by (migration 0013).
  const touchDevice = s
    .prepare<[number, number, number, string], bigint>(
      `UPDATE devices SET last_seen_at = ?, last_sync_at = ?, last_upload_at = ? WHERE id = ? RETURNING num`,
    )
    .pluck(true);
  const clearSubscriptions = s.prepare(`DELETE FROM device_subscriptions WHERE device_id = ?`);
  const insertSubscription = s.prepare(
    `INSERT INTO device_subscriptions (device_id, position, user_id, tool, provider, product, plan_type, rate_limit_tier, details, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEvent = s.prepare(
    `INSERT INTO ingest_events (device_id, user_id, bucket_count, inserted, skipped, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const begin = s.prepare('BEGIN IMMEDIATE');
  const commit = s.prepare('COMMIT');
  const rollback = s.prepare('ROLLBACK');
  /** The sums that add over many days come back typed: anything but an integer left the 64-bit range. */
  const integer = (type: unknown): boolean => type === 'integer';
  const families = (f: FamilyDelta) => [f.gpt, f.claude, f.other, f.gptCost, f.claudeCost, f.otherCost] as const;
  return {
    /** A device's packed raw buckets of one UTC day, if any. */
    deviceDay: (deviceNum: bigint, day: number): string | undefined => selectDeviceDay.get(deviceNum, day),
    /** A user's packed `usage_days` row of one UTC day, if any. */
    day: (userId: string, day: number): string | undefined => selectDay.get(userId, day),
    /** A user's count of stored raw buckets (none stored: 0). */
    storedBuckets: (userId: string): number => Number(selectStored.get(userId) ?? 0n),
    daily(userId: string, day: number, source: string, model: string): StoredDaily | undefined {
      const row = selectDaily.get(userId, day, source, model);
      if (row === undefined) return undefined;
      return {
        input: row.input,
        cached: row.cached_input,
        output: row.output,
        reasoning: row.reasoning,
        total: row.total,
        billable: row.billable,
        costMicros: BigInt(row.cost_micros),
      };
    },
    /** The ids of the teams the user is a member of (none: no team-side rows to write). */
    teamsOf: (userId: string): string[] => selectTeams.all(userId),
    /**
     * Adds a group's changes to its users' teams' rows; answers false when a sum left the 64-bit
     * range. Checked like the sums over many days: a team row sums one half-hour or day over every
     * member, each within the day bound, so a large team with a high bound could get there.
     */
    writeTeamModels(teams: TeamReadModels): boolean {
      let inRange = true;
      const add = (statement: typeof addTeamRollup, key: unknown[], c: TokenCounts, ...more: bigint[]) => {
        const type = statement.get(...key, c.input, c.cached, c.output, c.reasoning, c.total, c.billable, ...more);
        inRange = integer(type) && inRange;
      };
      for (const r of teams.rollup) add(addTeamRollup, [r.teamId, r.hourStart, r.source, r.model], r);
      for (const r of teams.spans) add(addTeamSpans, [r.teamId, r.spanStart, r.source, r.model], r);
      for (const d of teams.daily) add(addTeamDaily, [d.teamId, d.day, d.source, d.model], d, d.costMicros);
      return inRange;
    },
    /** Marks the device as synced; answers its number, or undefined when it no longer exists. */
    touchDevice: (deviceId: string, now: number): bigint | undefined => touchDevice.get(now, now, now, deviceId),
    putDeviceDays(rows: readonly DeviceDayRow[]): void {
      for (const r of rows) putDeviceDay.run(r.deviceNum, r.day, r.packed, r.now);
    },
    /** Replaces a device's subscriptions with `rows` (its whole list, in order). */
    replaceSubscriptions(deviceId: string, rows: readonly SubscriptionRow[]): void {
      clearSubscriptions.run(deviceId);
      for (const r of rows) {
        insertSubscription.run(
          r.deviceId,
          r.position,
          r.userId,
          r.tool,
          r.provider,
          r.product,
          r.planType,
          r.rateLimitTier,
          r.details,
          r.now,
        );
      }
    },
    insertEvent(r: UploadRow): void {
      insertEvent.run(r.deviceId, r.userId, r.bucketCount, r.inserted, r.skipped, r.now);
    },
    /**
     * Writes a group's read-model rows; answers false when a sum over many days (a project's, a
     * block's, a leaderboard period's) left the 64-bit range: SQLite turns such a sum into a float
     * without a word, so those upserts return their sum's type (the caller fails the group).
     */
    writeReadModels(users: readonly UserReadModels[]): boolean {
      let inRange = true;
      for (const u of users) {
        const { userId } = u;
        if (u.storedRows !== 0) addStored.run(userId, u.storedRows);
        for (const r of u.rollup)
          addRollup.run(
            userId,
            r.hourStart,
            r.source,
            r.model,
            r.input,
            r.cached,
            r.output,
            r.reasoning,
            r.total,
            r.billable,
          );
        for (const p of u.projects) {
          const type = addProject.get(
            userId,
            p.projectKey,
            p.source,
            p.projectRef,
            p.input,
            p.cached,
            p.output,
            p.reasoning,
            p.total,
            p.billable,
            p.updatedAt,
          );
          inRange = integer(type) && inRange;
        }
        for (const d of u.daily) {
          putDaily.run(
            userId,
            d.day,
            d.source,
            d.model,
            d.input,
            d.cached,
            d.output,
            d.reasoning,
            d.total,
            d.billable,
            d.costMicros,
          );
        }
        for (const b of u.blocks) {
          const type = addBlock.get(
            userId,
            b.block,
            b.source,
            b.model,
            b.input,
            b.cached,
            b.output,
            b.reasoning,
            b.total,
            b.billable,
            b.costMicros,
          );
          inRange = integer(type) && inRange;
        }
        for (const d of u.days) putDay.run(userId, d.day, d.packed);
        for (const w of u.weeks) inRange = integer(addWeek.get(userId, w.period, ...families(w))) && inRange;
        for (const m of u.months) inRange = integer(addMonth.get(userId, m.period, ...families(m))) && inRange;
        if (u.total) inRange = integer(addTotal.get(userId, ...families(u.total))) && inRange;
      }
      return inRange;
    },
    begin: (): void => void begin.run(),
    commit: (): void => void commit.run(),
    rollback: (): void => void rollback.run(),
  };
}

export type IngestStatements = ReturnType<typeof prepareIngestStatements>;
