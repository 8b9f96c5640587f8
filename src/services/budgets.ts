/**
 * @fileoverview Budgets (docs/budgets.md): set, list with the current period's spend, delete; the
 * alerts they raise, listed and dismissed. A user sets budgets for themselves; a team's owners and
 * admins for the team (its members see them; outsiders get 404). The check after uploads lives in
 * budget-alerts.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import {
  deleteBudget,
  dismissAlert,
  findAlertBudget,
  findBudget,
  listOpenAlerts,
  listTeamBudgets,
  listUserBudgets,
  upsertBudget,
  type AlertRecord,
  type BudgetRecord,
} from '../db/queries/budgets.js';
import {
  DEFAULT_THRESHOLDS,
  formatThresholds,
  parseThresholds,
  periodWindow,
  type BudgetPeriod,
  type WeekStart,
} from '../domain/budget-periods.js';
import { parseMicros } from '../pricing/money.js';
import { invalidField, NotFound } from '../domain/errors.js';
import { InvalidParamError } from '../domain/param-error.js';
import { parseZoneParam, resolveZone } from '../domain/zones.js';
import type { PriceService, PriceSource } from '../pricing/index.js';
import { managesTeam, type TeamAccess } from './team-access.js';
import { spendOf } from './usage-measure.js';

export interface BudgetInput {
  scope: 'user' | 'team';
  team_id?: string | undefined;
  period: BudgetPeriod;
  limit_usd?: string | undefined;
  limit_tokens?: string | undefined;
  thresholds?: number[] | undefined;
  tz?: string | undefined;
  week_starts_on?: WeekStart | undefined;
}

export interface BudgetStatus {
  budget: BudgetRecord;
  thresholds: number[];
  periodStartMs: number;
  periodEndMs: number;
  /** Spend in the budget's unit (micro-dollars or billable tokens), and both. */
  spendMicros: bigint;
  spendTokens: bigint;
  /** Per cent of the limit, two decimals. */
  share: number;
  state: 'ok' | 'warning' | 'exceeded';
}

const NO_SUCH_BUDGET = 'No such budget.';

export interface BudgetServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly prices: PriceSource<PriceService>;
  readonly teams: TeamAccess;
}

export class BudgetService {
  constructor(private readonly deps: BudgetServiceDeps) {}

  private get db() {
    return this.deps.db.kysely;
  }

  async set(userId: string, input: BudgetInput): Promise<BudgetStatus> {
    let teamId: string | null = null;
    if (input.scope === 'team') {
      if (input.team_id === undefined)
        throw invalidField({ in: 'body', field: 'team_id' }, 'is required for scope "team"');
      if (!managesTeam(await this.deps.teams.roleIn(input.team_id, userId))) throw new NotFound('No such team.');
      teamId = input.team_id;
    } else if (input.team_id !== undefined) {
      throw invalidField({ in: 'body', field: 'team_id' }, 'is only for scope "team"');
    }
    if ((input.limit_usd === undefined) === (input.limit_tokens === undefined))
      throw invalidField({ in: 'body', field: 'limit_usd' }, 'give exactly one of limit_usd and limit_tokens');
    const limitMicros = input.limit_usd === undefined ? null : parseMicros(input.limit_usd);
    const limitTokens = input.limit_tokens === undefined ? null : BigInt(input.limit_tokens);
    if ((limitMicros ?? limitTokens ?? 0n) <= 0n)
      throw invalidField(
        { in: 'body', field: input.limit_usd === undefined ? 'limit_tokens' : 'limit_usd' },
        'must be more than 0',
      );
    let tz: string;
    try {
      tz = parseZoneParam(input.tz) ?? 'UTC';
    } catch (e) {
      if (e instanceof InvalidParamError) throw invalidField({ in: 'body', field: 'tz' }, e.message);
      throw e;
    }
    const now = this.deps.clock.now();
    const id = await upsertBudget(this.db, {
      id: randomUUID(),
      scope: input.scope,
      scope_key: teamId === null ? `user:${userId}` : `team:${teamId}`,
      user_id: userId,
      team_id: teamId,
      period: input.period,
      limit_micros: limitMicros,
      limit_tokens: limitTokens,
      thresholds: formatThresholds(input.thresholds ?? DEFAULT_THRESHOLDS),
      tz,
      week_starts_on: input.week_starts_on ?? 'mon',
      created_at: now,
      updated_at: now,
    });
    const saved = await findBudget(this.db, id);
    if (!saved) throw new Error('the budget just set is gone');
    return this.status(saved);
  }

  /** The user's budgets and those of their teams, each with the current period's spend. */
  async list(userId: string): Promise<BudgetStatus[]> {
    const teams = await this.deps.teams.teamsOf(userId);
    const visible = [...(await listUserBudgets(this.db, userId)), ...(await listTeamBudgets(this.db, teams))];
    return Promise.all(visible.map((b) => this.status(b)));
  }

  /** A budget the caller may change (their own, or their team's as owner or admin), or 404. */
  private async managed(userId: string, id: string): Promise<BudgetRecord> {
    const b = await findBudget(this.db, id);
    if (b) {
      if (b.scope === 'user' && b.userId === userId) return b;
      if (b.scope === 'team' && b.teamId !== null && managesTeam(await this.deps.teams.roleIn(b.teamId, userId)))
        return b;
    }
    throw new NotFound(NO_SUCH_BUDGET);
  }

  async remove(userId: string, id: string): Promise<void> {
    await this.managed(userId, id);
    await deleteBudget(this.db, id);
  }

  /** Users whose usage a budget counts. */
  async membersOf(b: BudgetRecord): Promise<string[]> {
    return b.scope === 'team' && b.teamId !== null ? this.deps.teams.memberIds(b.teamId) : [b.userId];
  }

  async status(b: BudgetRecord, nowMs = this.deps.clock.now()): Promise<BudgetStatus> {
    const window = periodWindow(b.period, resolveZone({ tz: b.tz }), b.weekStartsOn, nowMs);
    const spend = await spendOf(this.deps.db, this.deps.prices, await this.membersOf(b), window.startMs, window.endMs);
    const used = b.limitMicros !== null ? spend.micros : spend.billable;
    const limit = b.limitMicros ?? b.limitTokens ?? 1n;
    const thresholds = parseThresholds(b.thresholds);
    const share = Number((used * 10_000n) / limit) / 100;
    const warnAt = thresholds[0] ?? 100;
    return {
      budget: b,
      thresholds,
      periodStartMs: window.startMs,
      periodEndMs: window.endMs,
      spendMicros: spend.micros,
      spendTokens: spend.billable,
      share,
      state: share >= 100 ? 'exceeded' : share >= warnAt ? 'warning' : 'ok',
    };
  }

  /** Open alerts of the budgets the caller owns or manages, with their budget. */
  async alerts(userId: string): Promise<{ alert: AlertRecord; budget: BudgetRecord }[]> {
    const mine = new Map<string, BudgetRecord>();
    for (const b of await listUserBudgets(this.db, userId)) mine.set(b.id, b);
    const managed: string[] = [];
    for (const teamId of await this.deps.teams.teamsOf(userId))
      if (managesTeam(await this.deps.teams.roleIn(teamId, userId))) managed.push(teamId);
    for (const b of await listTeamBudgets(this.db, managed)) mine.set(b.id, b);
    const open = await listOpenAlerts(this.db, [...mine.keys()]);
    return open.flatMap((alert) => {
      const budget = mine.get(alert.budgetId);
      return budget ? [{ alert, budget }] : [];
    });
  }

  async dismiss(userId: string, alertId: string): Promise<void> {
    const budgetId = await findAlertBudget(this.db, alertId);
    if (budgetId === undefined) throw new NotFound('No such alert.');
    try {
      await this.managed(userId, budgetId);
    } catch {
      throw new NotFound('No such alert.');
    }
    await dismissAlert(this.db, alertId, this.deps.clock.now());
  }
}
