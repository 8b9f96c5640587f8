/**
 * @fileoverview Budgets in the dashboard (docs/budgets.md): the overview's alert banner (budget
 * alerts to dismiss, webhooks disabled after failing) and budget progress, and the Settings panel
 * that sets and deletes the personal weekly and monthly budgets.
 */
import { useState, type FormEvent } from 'react';
import { call, type Answer } from '../api.js';
import { Card, ErrorNote, Skeleton } from '../components/common.js';
import { exactCount, exactUsd, humanCount, humanUsd } from '../lib/format.js';
import { browserZone, usePrefs } from '../prefs.js';
import { useLoad } from '../use-api.js';

export type Budget = Answer<'svc-budgets'>['budgets'][number];
type Alerts = Answer<'svc-budget-alerts'>;
type Alert = Alerts['alerts'][number];

function BudgetProgress({ budget }: { budget: Budget }) {
  const usd = budget.limit_usd !== null;
  const spent = usd ? humanUsd(budget.spend_usd) : humanCount(budget.spend_tokens);
  const limit = usd ? humanUsd(budget.limit_usd ?? '0') : humanCount(budget.limit_tokens ?? '0');
  const period = budget.period === 'week' ? 'weekly' : 'monthly';
  const label =
    budget.scope === 'team' ? `Team ${period} budget` : period === 'weekly' ? 'Weekly budget' : 'Monthly budget';
  return (
    <div className="budget" data-testid="budget-progress">
      <div className="budget-head">
        <span>{label}</span>
        <span className={budget.state === 'ok' ? 'muted' : budget.state === 'warning' ? 'warn-text' : 'error-text'}>
          {spent} of {limit} · {budget.share.toFixed(0)} %
        </span>
      </div>
      <progress
        className={`budget-bar budget-${budget.state}`}
        max={100}
        value={Math.min(100, budget.share)}
        aria-label={`${label}: ${budget.share} % used`}
      />
    </div>
  );
}

/**
 * One banner per budget and period: the highest threshold crossed (the lower ones said no more),
 * and dismissing it dismisses them all.
 */
function bannersOf(alerts: Alert[]): { top: Alert; ids: string[] }[] {
  const groups = new Map<string, { top: Alert; ids: string[] }>();
  for (const a of alerts) {
    const key = `${a.budget_id}|${a.period_start}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { top: a, ids: [a.id] });
    else {
      g.ids.push(a.id);
      if (a.threshold_percent > g.top.threshold_percent) g.top = a;
    }
  }
  return [...groups.values()];
}

/** The overview's banner and budget progress; nothing when there are no budgets or alerts. */
export function BudgetOverview() {
  const [version, setVersion] = useState(0);
  const budgets = useLoad(`budgets-${version}`, (signal) => call<Answer<'svc-budgets'>>('svc-budgets', { signal }));
  const alerts = useLoad(`budget-alerts-${version}`, (signal) => call<Alerts>('svc-budget-alerts', { signal }));
  const dismiss = async (ids: string[]) => {
    for (const id of ids) await call('svc-budget-alert-dismiss', { method: 'POST', body: { id } });
    setVersion((v) => v + 1);
  };
  return (
    <>
      {bannersOf(alerts.data?.alerts ?? []).map(({ top: a, ids }) => (
        <div key={a.id} className="note note-warn banner" role="alert" data-testid="budget-alert">
          <span title={a.unit === 'usd' ? exactUsd(a.spend) : exactCount(a.spend)}>
            {a.scope === 'team' ? 'Team budget' : 'Budget'}: {a.threshold_percent} % of the {a.period}ly limit reached (
            {a.unit === 'usd' ? humanUsd(a.spend) : `${humanCount(a.spend)} tokens`}).
          </span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => void dismiss(ids)}>
            Dismiss
          </button>
        </div>
      ))}
      {alerts.data?.disabled_webhooks.map((w) => (
        <div key={w.id} className="note note-error banner" role="alert" data-testid="webhook-disabled">
          <span>
            The webhook to <code>{w.url}</code> was disabled after failing for 24 hours.{' '}
            <a href="/settings#webhooks">Webhook settings</a>
          </span>
        </div>
      ))}
      {budgets.data && budgets.data.budgets.length > 0 && (
        <Card id="budgets" title="Budgets">
          {budgets.data.budgets.map((b) => (
            <BudgetProgress key={b.id} budget={b} />
          ))}
        </Card>
      )}
    </>
  );
}

function BudgetForm({ onSaved }: { onSaved: () => void }) {
  const prefs = usePrefs();
  const [period, setPeriod] = useState<'week' | 'month'>('month');
  const [unit, setUnit] = useState<'usd' | 'tokens'>('usd');
  const [limit, setLimit] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      const body = {
        scope: 'user',
        period,
        ...(unit === 'usd' ? { limit_usd: limit.trim() } : { limit_tokens: limit.trim() }),
        tz: prefs.zone ?? browserZone(),
        week_starts_on: prefs.weekStart,
      };
      await call('svc-budget-set', { method: 'POST', body });
      setLimit('');
      onSaved();
    } catch (failed) {
      setError((failed as Error).message);
    }
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e)} data-testid="budget-form">
      <div className="inline-form">
        <label className="field">
          <span>Period</span>
          <select value={period} onChange={(e) => setPeriod(e.target.value === 'week' ? 'week' : 'month')}>
            <option value="month">Month</option>
            <option value="week">Week</option>
          </select>
        </label>
        <label className="field">
          <span>Limit in</span>
          <select value={unit} onChange={(e) => setUnit(e.target.value === 'tokens' ? 'tokens' : 'usd')}>
            <option value="usd">US dollars</option>
            <option value="tokens">Billable tokens</option>
          </select>
        </label>
        <label className="field">
          <span>Limit</span>
          <input
            value={limit}
            onChange={(e) => setLimit(e.target.value)}
            inputMode="decimal"
            required
            pattern={unit === 'usd' ? '[0-9]{1,12}(\\.[0-9]{1,6})?' : '[0-9]{1,19}'}
            placeholder={unit === 'usd' ? '250' : '50000000'}
          />
        </label>
      </div>
      <div className="button-row">
        <button className="btn btn-primary" type="submit" disabled={limit.trim() === ''}>
          Set budget
        </button>
        <span className="muted small">
          Alerts at 50, 80 and 100 %: a banner, your webhooks and (when mail is set up) an e-mail.
        </span>
      </div>
      {error && <ErrorNote message={error} />}
    </form>
  );
}

export function BudgetsPanel() {
  const [version, setVersion] = useState(0);
  const list = useLoad(`budgets-settings-${version}`, (signal) =>
    call<Answer<'svc-budgets'>>('svc-budgets', { signal }),
  );
  const refresh = () => setVersion((v) => v + 1);
  const remove = async (id: string) => {
    await call('svc-budget-delete', { method: 'POST', body: { id } });
    refresh();
  };
  const mine = list.data?.budgets.filter((b) => b.scope === 'user') ?? [];
  return (
    <Card id="budgets" title="Budgets">
      <p className="muted small">
        One budget per week and per month, measured in your time zone; setting one again replaces it.
      </p>
      <BudgetForm onSaved={refresh} />
      {list.error && <ErrorNote message={list.error} retry={list.retry} />}
      {!list.data && !list.error && <Skeleton height={40} />}
      {mine.length > 0 && (
        <div className="budget-list">
          {mine.map((b) => (
            <div key={b.id} className="budget-row">
              <BudgetProgress budget={b} />
              <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => void remove(b.id)}>
                Delete
              </button>
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}
