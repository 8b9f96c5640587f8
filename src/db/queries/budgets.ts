/** @fileoverview Budgets and their alerts (migration 0022, docs/budgets.md). */
import type { Queryable } from '../connect.js';
import type { Selectable } from 'kysely';
import type { BudgetsTable } from '../schema.js';

export interface BudgetRecord {
  id: string;
  scope: 'user' | 'team';
  userId: string;
  teamId: string | null;
  period: 'week' | 'month';
  limitMicros: bigint | null;
  limitTokens: bigint | null;
  thresholds: string;
  tz: string;
  weekStartsOn: 'mon' | 'sun';
  createdAt: number;
}

function record(r: Selectable<BudgetsTable>): BudgetRecord {
  return {
    id: r.id,
    scope: r.scope === 'team' ? 'team' : 'user',
    userId: r.user_id,
    teamId: r.team_id,
    period: r.period === 'week' ? 'week' : 'month',
    limitMicros: r.limit_micros,
    limitTokens: r.limit_tokens,
    thresholds: r.thresholds,
    tz: r.tz,
    weekStartsOn: r.week_starts_on === 'sun' ? 'sun' : 'mon',
    createdAt: Number(r.created_at),
  };
}

export interface NewBudget {
  id: string;
  scope: string;
  scope_key: string;
  user_id: string;
  team_id: string | null;
  period: string;
  limit_micros: bigint | null;
  limit_tokens: bigint | null;
  thresholds: string;
  tz: string;
  week_starts_on: string;
  created_at: number;
  updated_at: number;
}

/** Sets the owner's budget of a period (one per owner and period): inserted, or updated in place. */
export async function upsertBudget(db: Queryable, row: NewBudget): Promise<string> {
  const changes = row;
  const saved = await db
    .insertInto('budgets')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['scope_key', 'period']).doUpdateSet({
        limit_micros: changes.limit_micros,
        limit_tokens: changes.limit_tokens,
        thresholds: changes.thresholds,
        tz: changes.tz,
        week_starts_on: changes.week_starts_on,
        updated_at: changes.updated_at,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return saved.id;
}

export async function findBudget(db: Queryable, id: string): Promise<BudgetRecord | undefined> {
  const r = await db.selectFrom('budgets').selectAll().where('id', '=', id).executeTakeFirst();
  return r && record(r);
}

/** A user's own budgets. */
export async function listUserBudgets(db: Queryable, userId: string): Promise<BudgetRecord[]> {
  const rows = await db
    .selectFrom('budgets')
    .selectAll()
    .where('scope_key', '=', `user:${userId}`)
    .orderBy('period')
    .execute();
  return rows.map(record);
}

/** The budgets of these teams (by the `budgets_team` index). */
export async function listTeamBudgets(db: Queryable, teamIds: readonly string[]): Promise<BudgetRecord[]> {
  if (teamIds.length === 0) return [];
  const q = db.selectFrom('budgets').selectAll().where('scope', '=', 'team').where('team_id', 'in', teamIds);
  return (await q.orderBy('team_id').orderBy('period').execute()).map(record);
}

export async function deleteBudget(db: Queryable, id: string): Promise<boolean> {
  const r = await db.deleteFrom('budgets').where('id', '=', id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Raises an alert unless one exists for (budget, period start, threshold): true when this call raised it. */
export async function insertBudgetAlert(
  db: Queryable,
  row: { id: string; budget_id: string; period_start: number; threshold: number; spend: bigint; raised_at: number },
): Promise<boolean> {
  const r = await db
    .insertInto('budget_alerts')
    .values(row)
    .onConflict((oc) => oc.columns(['budget_id', 'period_start', 'threshold']).doNothing())
    .executeTakeFirst();
  return BigInt(r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export interface AlertRecord {
  id: string;
  budgetId: string;
  periodStart: number;
  threshold: number;
  spend: bigint;
  raisedAt: number;
}

/** The thresholds already raised for a budget's period. */
export async function raisedThresholds(db: Queryable, budgetId: string, periodStart: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('budget_alerts')
    .select('threshold')
    .where('budget_id', '=', budgetId)
    .where('period_start', '=', BigInt(periodStart))
    .execute();
  return new Set(rows.map((r) => Number(r.threshold)));
}

/** Alerts not dismissed of these budgets, newest first. */
export async function listOpenAlerts(db: Queryable, budgetIds: readonly string[]): Promise<AlertRecord[]> {
  if (budgetIds.length === 0) return [];
  const rows = await db
    .selectFrom('budget_alerts')
    .selectAll()
    .where('budget_id', 'in', budgetIds)
    .where('dismissed_at', 'is', null)
    .orderBy('raised_at', 'desc')
    .orderBy('threshold', 'desc')
    .limit(100)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    budgetId: r.budget_id,
    periodStart: Number(r.period_start),
    threshold: Number(r.threshold),
    spend: BigInt(r.spend),
    raisedAt: Number(r.raised_at),
  }));
}

export async function findAlertBudget(db: Queryable, alertId: string): Promise<string | undefined> {
  const r = await db.selectFrom('budget_alerts').select('budget_id').where('id', '=', alertId).executeTakeFirst();
  return r?.budget_id;
}

export async function dismissAlert(db: Queryable, alertId: string, now: number): Promise<void> {
  await db.updateTable('budget_alerts').set({ dismissed_at: now }).where('id', '=', alertId).execute();
}
