/**
 * @fileoverview The leaderboard's per-period family costs moved by a change of stored costs that
 * is not an upload: the repricing swap (daily-costs.ts) adds each changed `usage_daily` row's
 * difference here, in its own transaction, so the per-period costs stay the sums of the stored
 * costs (docs/leaderboard.md). Uploads add theirs with their tokens (ingest-sqlite.ts,
 * ingest-postgres.ts).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { PeriodDeltaSum, type FamilyDelta } from '../../domain/leaderboard-periods.js';
import type { Tx } from '../transaction.js';

/** Changes of stored costs, summed per user into their period rows. */
export class PeriodCostChanges {
  readonly byUser = new Map<string, PeriodDeltaSum>();

  /** A `usage_daily` row (user, UTC epoch day, model) whose stored cost moved by `deltaMicros`. */
  add(userId: string, day: number, model: string, deltaMicros: bigint): void {
    if (deltaMicros === 0n) return;
    let sum = this.byUser.get(userId);
    if (sum === undefined) this.byUser.set(userId, (sum = new PeriodDeltaSum()));
    sum.add(day, model, 0n, deltaMicros);
  }

  /** Every period row that moves: `key` is the week or month number, null for the all-time row. */
  rows(): { table: Table; userId: string; key: number | null; f: FamilyDelta }[] {
    const out: { table: Table; userId: string; key: number | null; f: FamilyDelta }[] = [];
    for (const [userId, sum] of this.byUser) {
      const d = sum.deltas();
      for (const w of d.weeks) out.push({ table: 'leaderboard_user_weeks', userId, key: w.period, f: w });
      for (const m of d.months) out.push({ table: 'leaderboard_user_months', userId, key: m.period, f: m });
      if (d.total) out.push({ table: 'leaderboard_user_totals', userId, key: null, f: d.total });
    }
    return out;
  }
}

type Table = 'leaderboard_user_weeks' | 'leaderboard_user_months' | 'leaderboard_user_totals';
const KEY: Record<Table, string | null> = {
  leaderboard_user_weeks: 'week',
  leaderboard_user_months: 'month',
  leaderboard_user_totals: null,
};

/** One table's upsert adding costs around its source of rows (a row new to the table gets zero tokens). */
function upsert(table: Table): { head: string; tail: string } {
  const key = KEY[table];
  const keys = key ? `user_id, ${key}` : 'user_id';
  return {
    head: `INSERT INTO ${table} AS t (${keys}, gpt, claude, other, gpt_cost, claude_cost, other_cost)`,
    tail: `ON CONFLICT (${keys}) DO UPDATE SET gpt_cost = t.gpt_cost + excluded.gpt_cost,
      claude_cost = t.claude_cost + excluded.claude_cost, other_cost = t.other_cost + excluded.other_cost`,
  };
}

/** SQLite: adds the changes on the connection, inside the caller's (synchronous) transaction. */
export function addPeriodCostsSync(s: BetterSqlite3.Database, changes: PeriodCostChanges): void {
  const statements = new Map<Table, BetterSqlite3.Statement>();
  for (const r of changes.rows()) {
    let st = statements.get(r.table);
    if (st === undefined) {
      const { head, tail } = upsert(r.table);
      st = s.prepare(`${head} VALUES (${KEY[r.table] ? '?, ?' : '?'}, 0, 0, 0, ?, ?, ?) ${tail}`);
      statements.set(r.table, st);
    }
    const key = r.key === null ? [] : [r.key];
    st.run(r.userId, ...key, r.f.gptCost, r.f.claudeCost, r.f.otherCost);
  }
}

/** PostgreSQL: adds the changes in the caller's transaction, one statement per table. */
export async function addPeriodCosts(tx: Tx, changes: PeriodCostChanges): Promise<void> {
  const rows = changes.rows();
  for (const table of Object.keys(KEY) as Table[]) {
    const mine = rows.filter((r) => r.table === table);
    if (mine.length === 0) continue;
    const { head, tail } = upsert(table);
    const users = mine.map((r) => r.userId);
    const costs = (pick: (f: FamilyDelta) => bigint) => mine.map((r) => pick(r.f).toString());
    const [g, c, o] = [costs((f) => f.gptCost), costs((f) => f.claudeCost), costs((f) => f.otherCost)];
    const source = KEY[table]
      ? sql`SELECT u, k, 0, 0, 0, g, c, o FROM unnest(${users}::text[], ${mine.map((r) => r.key)}::int8[], ${g}::int8[], ${c}::int8[], ${o}::int8[]) AS x(u, k, g, c, o)`
      : sql`SELECT u, 0, 0, 0, g, c, o FROM unnest(${users}::text[], ${g}::int8[], ${c}::int8[], ${o}::int8[]) AS x(u, g, c, o)`;
    await sql`${sql.raw(head)} ${source} ${sql.raw(tail)}`.execute(tx);
  }
}
