/** @fileoverview The overview's panels: totals, trend, model breakdown, daily table. */
import { useMemo } from 'react';
import { ChartOrTable } from '../components/common.js';
import { TrendChart } from '../components/trend-chart.js';
import { toCsv } from '../lib/csv.js';
import { exactCount, exactUsd, humanChange, humanCount, humanDate, humanPercent, humanUsd } from '../lib/format.js';
import { change } from '../lib/ranges.js';
import { cacheShare, slotLabel, slotLabelWithOffset, sortRows, unsyncedSlots, type SortKey } from '../lib/series.js';
import { activeDays, type OverviewData, type SourceRow, type StackBy } from './overview-data.js';

interface Stat {
  label: string;
  value: string;
  exact: string;
  delta: number | null;
  /** For cost, up is not good news: shown neutral. */
  neutral?: boolean;
}

export function TotalsPanel({ data, streak }: { data: OverviewData; streak: number | undefined }) {
  const t = data.summary.totals;
  const p = data.previous.totals;
  const days = activeDays(data.daily);
  const prevDays = activeDays(data.previousDaily);
  const avg = days ? Number(t.billable_total_tokens) / days : 0;
  const prevAvg = prevDays ? Number(p.billable_total_tokens) / prevDays : 0;
  const share = cacheShare(data.breakdown.sources);
  const stats: Stat[] = [
    {
      label: 'Tokens',
      value: humanCount(t.total_tokens),
      exact: exactCount(t.total_tokens),
      delta: change(Number(t.total_tokens), Number(p.total_tokens)),
    },
    {
      label: 'Billable tokens',
      value: humanCount(t.billable_total_tokens),
      exact: exactCount(t.billable_total_tokens),
      delta: change(Number(t.billable_total_tokens), Number(p.billable_total_tokens)),
    },
    {
      label: 'Cost',
      value: humanUsd(t.total_cost_usd),
      exact: exactUsd(t.total_cost_usd),
      delta: change(Number(t.total_cost_usd), Number(p.total_cost_usd)),
      neutral: true,
    },
    {
      label: 'Active days',
      value: String(days),
      exact: `${days} of ${data.daily.data.length} days`,
      delta: change(days, prevDays),
    },
    {
      label: 'Streak',
      value: streak === undefined ? '…' : `${streak} day${streak === 1 ? '' : 's'}`,
      exact: 'Days in a row with usage, up to today',
      delta: null,
    },
    {
      label: 'Average per active day',
      value: humanCount(avg),
      exact: `${exactCount(Math.round(avg))} billable tokens`,
      delta: change(avg, prevAvg),
    },
    {
      label: 'Cache-hit share',
      value: humanPercent(share),
      exact: `${(share * 100).toFixed(2)} % of input read from cache`,
      delta: null,
    },
  ];
  return (
    <div className="stats" role="list">
      {stats.map((s) => (
        <div key={s.label} className="stat" role="listitem" title={s.exact}>
          <div className="stat-label">{s.label}</div>
          <div className="stat-value" data-testid={`stat-${s.label.toLowerCase().replaceAll(' ', '-')}`}>
            {s.value}
          </div>
          {s.delta === null && (s.label === 'Streak' || s.label === 'Cache-hit share') ? (
            <div className="stat-delta neutral">{s.label === 'Streak' ? 'current' : 'of input'}</div>
          ) : (
            <div
              className={`stat-delta ${s.delta === null || s.delta === 0 || s.neutral ? 'neutral' : s.delta > 0 ? 'up' : 'down'}`}
            >
              {humanChange(s.delta)} <span className="sr-only">compared with the previous period</span>
              <span aria-hidden="true"> vs previous</span>
            </div>
          )}
        </div>
      ))}
    </div>
  );
}

export function TrendPanel({
  data,
  by,
  unit,
  nowMs,
}: {
  data: OverviewData;
  by: StackBy;
  unit: 'tokens' | 'cost';
  nowMs: number;
}) {
  const trend = data.trend;
  const hourly = trend.kind === 'hourly';
  const labels = useMemo(
    () => trend.xs.map((x) => (hourly ? slotLabel(x) : humanDate(x).replace(/,? \d{4}$/, ''))),
    [trend, hourly],
  );
  const longLabels = useMemo(
    () => trend.xs.map((x) => (hourly ? slotLabelWithOffset(x) : humanDate(x, undefined, true))),
    [trend, hourly],
  );
  const layers = useMemo(
    () =>
      unit === 'cost'
        ? trend.layers.map((l, i) => ({ key: l.key, values: l.values.map((v) => v * (trend.costRates[i] ?? 0)) }))
        : trend.layers,
    [trend, unit],
  );
  const unsynced = useMemo(
    () =>
      hourly && trend.hourly ? unsyncedSlots(trend.hourly.data, trend.hourly.sync.last_sync_at, nowMs) : undefined,
    [trend, hourly, nowMs],
  );
  const fmt = (v: number) => (unit === 'cost' ? `≈ ${humanUsd(v)}` : exactCount(Math.round(v)));
  if (layers.length === 0 || layers.every((l) => l.values.every((v) => v === 0))) {
    return <p className="muted empty-chart">No usage in this range.</p>;
  }
  const table = (
    <table className="data-table">
      <caption className="sr-only">{`${unit === 'cost' ? 'Estimated cost' : 'Billable tokens'} per ${hourly ? 'half-hour' : 'day'} and ${by}`}</caption>
      <thead>
        <tr>
          <th scope="col">{hourly ? 'Half-hour' : 'Day'}</th>
          {layers.map((l) => (
            <th scope="col" key={l.key} className="num">
              {l.key}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {trend.xs.map((x, i) => (
          <tr key={x}>
            <th scope="row">
              {longLabels[i]}
              {unsynced?.[i] ? ' (not yet synced)' : ''}
            </th>
            {layers.map((l) => (
              <td key={l.key} className="num">
                {fmt(l.values[i] ?? 0)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <ChartOrTable
      label="trend"
      chart={
        <TrendChart
          labels={labels}
          longLabels={longLabels}
          layers={layers}
          unit={unit}
          {...(unsynced ? { unsynced } : {})}
        />
      }
      table={table}
    />
  );
}

export function ModelBreakdown({ sources }: { sources: SourceRow[] }) {
  const total = sources.reduce((s, x) => s + Number(x.totals.billable_total_tokens), 0);
  if (sources.length === 0) return <p className="muted">No models used in this range.</p>;
  return (
    <div className="table-wrap">
      <table className="data-table models">
        <caption className="sr-only">Billable tokens, share and cost per model, grouped by source</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Tokens
            </th>
            <th scope="col" className="num">
              Share
            </th>
            <th scope="col" className="num">
              Cost
            </th>
          </tr>
        </thead>
        {sources.map((s) => (
          <tbody key={s.source}>
            <tr className="group-row">
              <th scope="rowgroup" colSpan={1}>
                {s.source}
              </th>
              <td className="num" title={exactCount(s.totals.billable_total_tokens)}>
                {humanCount(s.totals.billable_total_tokens)}
              </td>
              <td className="num">{humanPercent(total ? Number(s.totals.billable_total_tokens) / total : 0)}</td>
              <td className="num" title={exactUsd(s.totals.total_cost_usd)}>
                {humanUsd(s.totals.total_cost_usd)}
              </td>
            </tr>
            {s.models.map((m) => {
              const share = total ? Number(m.totals.billable_total_tokens) / total : 0;
              return (
                <tr key={m.model_id} data-model={m.model_id}>
                  <th scope="row">
                    <span className="model-name">
                      <span>{m.model}</span>
                      {m.priced_as && m.priced_as !== m.model_id && (
                        <span className="badge">priced as {m.priced_as}</span>
                      )}
                    </span>
                  </th>
                  <td className="num" title={exactCount(m.totals.billable_total_tokens)}>
                    {humanCount(m.totals.billable_total_tokens)}
                  </td>
                  <td className="num">
                    <span className="share-bar" aria-hidden="true">
                      <span style={{ width: `${Math.max(1, share * 100)}%` }} />
                    </span>
                    {humanPercent(share)}
                  </td>
                  <td className="num" title={exactUsd(m.totals.total_cost_usd)}>
                    {humanUsd(m.totals.total_cost_usd)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        ))}
      </table>
    </div>
  );
}

const COLUMNS: Array<{ key: SortKey; label: string }> = [
  { key: 'day', label: 'Day' },
  { key: 'total_tokens', label: 'Total' },
  { key: 'billable_total_tokens', label: 'Billable' },
  { key: 'input_tokens', label: 'Input' },
  { key: 'cached_input_tokens', label: 'Cached input' },
  { key: 'output_tokens', label: 'Output' },
  { key: 'reasoning_output_tokens', label: 'Reasoning' },
];

export function DailyTable({
  data,
  sort,
  descending,
  onSort,
  onOpen,
}: {
  data: OverviewData;
  sort: SortKey;
  descending: boolean;
  onSort: (k: SortKey) => void;
  onOpen: (day: string) => void;
}) {
  const rows = useMemo(() => sortRows(data.daily.data, sort, descending), [data, sort, descending]);
  const download = () => {
    const csv = toCsv(
      COLUMNS.map((c) => c.key),
      rows.map((r) => COLUMNS.map((c) => (c.key === 'day' ? r.day : r[c.key]))),
    );
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
    a.download = `tokentally-${data.daily.data[0]?.day ?? ''}-${data.daily.data.at(-1)?.day ?? ''}.csv`;
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <>
      <div className="card-toolbar">
        <button type="button" className="btn btn-small" onClick={download}>
          Download CSV
        </button>
      </div>
      <div className="table-wrap tall">
        <table className="data-table" data-testid="daily-table">
          <caption className="sr-only">Tokens per day; column headers sort</caption>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={c.key === 'day' ? '' : 'num'}
                  aria-sort={sort === c.key ? (descending ? 'descending' : 'ascending') : 'none'}
                >
                  <button type="button" className="sort-button" onClick={() => onSort(c.key)}>
                    {c.label}
                    <span aria-hidden="true">{sort === c.key ? (descending ? ' ↓' : ' ↑') : ''}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.day}>
                <th scope="row">
                  <a
                    href={`?range=custom&from=${r.day}&to=${r.day}`}
                    onClick={(e) => (e.preventDefault(), onOpen(r.day))}
                  >
                    {humanDate(r.day, undefined, true)}
                  </a>
                </th>
                {COLUMNS.slice(1).map((c) => (
                  <td key={c.key} className="num">
                    {exactCount(r[c.key as Exclude<SortKey, 'day'>])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
