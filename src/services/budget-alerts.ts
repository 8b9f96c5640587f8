/**
 * @fileoverview The budget check after uploads (docs/budgets.md, "Alerts"): told which user's usage
 * changed, it runs later, off the upload's path (after CHECK_DELAY_MS, which a burst of uploads shares;
 * queued, one at a time per process, errors logged),
 * and for each budget counting that user (theirs, their teams') raises each threshold the period's
 * spend reached. An alert is a row unique per (budget, period, threshold): of the checks that
 * cross it at once, in any process, exactly one inserts it, and in that same transaction queues
 * the `budget.threshold_crossed` webhook event; its e-mail goes after the commit.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { insertBudgetAlert, listTeamBudgets, listUserBudgets, raisedThresholds } from '../db/queries/budgets.js';
import { findUserById } from '../db/queries/users.js';
import { inTransaction } from '../db/transaction.js';
import type { BudgetRecord } from '../db/queries/budgets.js';
import { crossedThresholds } from '../domain/budget-periods.js';
import type { Mailer } from '../mail/mailer.js';
import { formatMicros } from '../pricing/index.js';
import type { BudgetService, BudgetStatus } from './budgets.js';
import { managesTeam, type TeamAccess } from './team-access.js';
import { enqueueEvent, type BudgetCrossedData } from './webhook-events.js';

export interface BudgetAlertDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly budgets: BudgetService;
  readonly teams: TeamAccess;
  readonly mailer: Mailer | undefined;
  readonly publicUrl: string;
  /** Told after alerts queued webhook messages (the delivery worker runs soon). */
  readonly onQueued: () => void;
  readonly onError: (error: unknown) => void;
}

/**
 * How long a user's check waits after the upload that asked for it. A device syncing in a burst (a
 * first sync, a backfill) sends many uploads a second: they share one check, which reads the spend
 * they stored together, instead of one each (each a few queries; docs/budgets.md, "Cost to uploads").
 * An alert is at most this late.
 */
export const CHECK_DELAY_MS = 2_000;

export class BudgetAlerts {
  /** Users with a check waiting, and the timer that queues it. */
  private readonly waiting = new Map<string, NodeJS.Timeout>();
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly deps: BudgetAlertDeps) {}

  /** An upload changed `userId`'s stored usage: their budgets are checked soon. Never throws, never waits. */
  usageChanged(userId: string): void {
    if (this.closed || this.waiting.has(userId)) return;
    const timer = setTimeout(() => this.enqueue(userId), CHECK_DELAY_MS);
    timer.unref();
    this.waiting.set(userId, timer);
  }

  /** Queues `userId`'s check now (one at a time per process, errors logged). */
  private enqueue(userId: string): void {
    const timer = this.waiting.get(userId);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.waiting.delete(userId);
    this.chain = this.chain.then(async () => {
      try {
        await this.check(userId);
      } catch (error) {
        this.deps.onError(error);
      }
    });
  }

  /** Runs every waiting check now and resolves once all have run (tests; shutdown). */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do {
      for (const userId of [...this.waiting.keys()]) this.enqueue(userId);
      seen = this.chain;
      await seen;
    } while (seen !== this.chain || this.waiting.size > 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  /**
   * The budgets that count `userId`'s usage: their own and their teams'. Runs after every upload
   * that stores usage: two indexed reads, whatever the number of teams and budgets on the instance.
   */
  private async budgetsCounting(userId: string): Promise<BudgetRecord[]> {
    const own = await listUserBudgets(this.deps.db.kysely, userId);
    const teams = await this.deps.teams.teamsOf(userId);
    return [...own, ...(await listTeamBudgets(this.deps.db.kysely, teams))];
  }

  /** Raises the thresholds `userId`'s budgets reached; returns how many alerts this call raised. */
  async check(userId: string): Promise<number> {
    let raised = 0;
    for (const budget of await this.budgetsCounting(userId)) raised += await this.checkOne(budget);
    return raised;
  }

  private async checkOne(budget: BudgetRecord): Promise<number> {
    const now = this.deps.clock.now();
    const status = await this.deps.budgets.status(budget, now);
    const used = budget.limitMicros !== null ? status.spendMicros : status.spendTokens;
    const limit = budget.limitMicros ?? budget.limitTokens ?? 0n;
    const already = await raisedThresholds(this.deps.db.kysely, budget.id, status.periodStartMs);
    const crossed = crossedThresholds(used, limit, status.thresholds).filter((t) => !already.has(t));
    if (crossed.length === 0) return 0;
    const mine = await inTransaction(this.deps.db, async (tx) => {
      const inserted: number[] = [];
      for (const threshold of crossed) {
        const row = {
          id: randomUUID(),
          budget_id: budget.id,
          period_start: status.periodStartMs,
          threshold,
          spend: used,
          raised_at: now,
        };
        if (!(await insertBudgetAlert(tx, row))) continue;
        inserted.push(threshold);
        const target =
          budget.scope === 'team' && budget.teamId !== null
            ? { scope: 'team' as const, teamId: budget.teamId }
            : { scope: 'user' as const, userId: budget.userId };
        await enqueueEvent(tx, target, 'budget.threshold_crossed', crossedData(status, threshold), now);
      }
      return inserted;
    });
    if (mine.length > 0) {
      this.deps.onQueued();
      await this.mail(status, Math.max(...mine)).catch((error: unknown) => this.deps.onError(error));
    }
    return mine.length;
  }

  /** Tells the budget's owner (a team's owners and admins) by e-mail, when SMTP is configured. */
  private async mail(status: BudgetStatus, threshold: number): Promise<void> {
    const mailer = this.deps.mailer;
    if (mailer === undefined) return;
    const b = status.budget;
    const recipients: string[] = [];
    if (b.scope === 'team' && b.teamId !== null) {
      for (const id of await this.deps.teams.memberIds(b.teamId))
        if (managesTeam(await this.deps.teams.roleIn(b.teamId, id))) recipients.push(id);
    } else recipients.push(b.userId);
    const data = crossedData(status, threshold);
    const limit = data.limit_usd !== null ? `$${data.limit_usd}` : `${data.limit_tokens ?? ''} billable tokens`;
    const spent = data.limit_usd !== null ? `$${data.spend_usd}` : `${data.spend_tokens} billable tokens`;
    const what = b.scope === 'team' ? 'Your team has' : 'You have';
    const text = `${what} used ${threshold}% of the ${b.period}ly budget of ${limit} (${spent} since ${data.period_start}).\n\n${this.deps.publicUrl}/`;
    for (const id of recipients) {
      const email = (await findUserById(this.deps.db.kysely, id))?.email;
      if (!email) continue;
      await mailer.send({
        to: email,
        subject: `Tokentally: ${threshold}% of your ${b.period}ly budget used`,
        text,
        html: `<p>${text.split('\n\n')[0] ?? ''}</p><p><a href="${this.deps.publicUrl}/">Open Tokentally</a></p>`,
      });
    }
  }
}

/** The `budget.threshold_crossed` payload. */
export function crossedData(status: BudgetStatus, threshold: number): BudgetCrossedData {
  const b = status.budget;
  return {
    budget_id: b.id,
    scope: b.scope,
    user_id: b.scope === 'user' ? b.userId : null,
    team_id: b.teamId,
    period: b.period,
    period_start: new Date(status.periodStartMs).toISOString(),
    period_end: new Date(status.periodEndMs).toISOString(),
    threshold_percent: threshold,
    limit_usd: b.limitMicros === null ? null : formatMicros(b.limitMicros),
    limit_tokens: b.limitTokens === null ? null : b.limitTokens.toString(),
    spend_usd: formatMicros(status.spendMicros),
    spend_tokens: status.spendTokens.toString(),
  };
}
