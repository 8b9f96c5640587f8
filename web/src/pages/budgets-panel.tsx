/**
 * @fileoverview Budgets in the dashboard (docs/budgets.md): the overview's alert banner (budget
 * alerts to dismiss, webhooks disabled after failing) and budget progress, and the Settings panel
 * that sets and deletes the personal weekly and monthly budgets.
 */
import { useState, type FormEvent } from 'react';
import { call } from '../api.js';
import { Card, ErrorNote, Skeleton } from '../components/common.js';
import { exactCount, exactUsd, humanCount, humanUsd } from '../lib/format.js';
import { browserZone, usePrefs } from '../prefs.js';
import { useLoad } from '../use-api.js';

export interface Budget {
  id: string;
  scope: 'user' | 'team';
  team_id: string | null;
  period: 'week' | 'month';
  limit_usd: string | null;
  limit_tokens: string | null;
  thresholds: number[];
  period_start: string;
  period_end: string;
  spend_usd: string;
  spend_tokens: string;
  share: number;
  state: 'ok' | 'warning' | 'exceeded';
}

interface Alerts {
  alerts: {
    id: string;
    period: string;
    threshold_percent: number;
    spend: string;
    unit: 'usd' | 'tokens';
    scope: string;
  }[];
  disabled_webhooks: { id: string; url: string; disabled_at: string }[];
}

function BudgetProgress({ budget }: { budget: Budget }) {
  const usd = budget.limit_usd !== null;
  const spent = usd ? humanUsd(budget.spend_usd) : humanCount(budget.spend_tokens);
  const limit = usd ? humanUsd(budget.limit_usd ?? '0') : humanCount(budget.limit_tokens ?? '0');
  const label = `${budget.scope === 'team' ? 'Team ' : ''}${budget.period === 'week' ? 'weekly' : 'monthly'} budget`;
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

/** The overview's banner and budget progress; nothing when there are no budgets or alerts. */
export function BudgetOverview() {
  const [version, setVersion] = useState(0);
  const budgets = useLoad(`budgets-${version}`, (signal) => call<{ budgets: Budget[] }>('svc-budgets', { signal }));
  const alerts = useLoad(`budget-alerts-${version}`, (signal) => call<Alerts>('svc-budget-alerts', { signal }));
  const dismiss = async (id: string) => {
    await call('svc-budget-alert-dismiss', { method: 'POST', body: { id } });
    setVersion((v) => v + 1);
  };
  return (
    <>
      {alerts.data?.alerts.map((a) => (
        <div key={a.id} className="note note-warn banner" role="alert" data-testid="budget-alert">
          <span>
            {a.scope === 'team' ? 'Team budget' : 'Budget'}: {a.threshold_percent} % of the {a.period}ly limit reached (
            {a.unit === 'usd' ? exactUsd(a.spend) : `${exactCount(a.spend)} tokens`}).
          </span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => void dismiss(a.id)}>
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
    call<{ budgets: Budget[] }>('svc-budgets', { signal }),
  );
  const refresh = () => setVersion((v) => v + 1);
  const remove = async (id: string) => {
    await call('svc-budget-delete', { method: 'POST', body: { id } });
    refresh();
  };
  const mine = list.data?.budgets.filter((b) => b.scope === 'user') ?? [];
  return (
    <Card id="budgets" title="Budgets">
      <p className="muted small flush">
        One budget per week and per month, measured in your time zone; setting one again replaces it.
      </p>
      <BudgetForm onSaved={refresh} />
      {list.error && <ErrorNote message={list.error} retry={list.retry} />}
      {!list.data && !list.error && <Skeleton height={40} />}
      {mine.map((b) => (
        <div key={b.id} className="budget-row">
          <BudgetProgress budget={b} />
          <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => void remove(b.id)}>
            Delete
          </button>
        </div>
      ))}
    </Card>
  );
}
