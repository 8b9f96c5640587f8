/** @fileoverview The overview's panels: the totals cards and the trend (days, weeks or months; half-hours for one day). */
import { memo, useMemo } from 'react';
import { ChartOrTable } from '../components/common.js';
import { TrendChart } from '../components/trend-chart.js';
import {
  exactCount,
  exactUsd,
  humanChange,
  humanCount,
  humanDate,
  humanMonth,
  humanPercent,
  humanUsd,
} from '../lib/format.js';
import { change } from '../lib/ranges.js';
import {
  cacheShare,
  grainOf,
  groupSlots,
  slotLabel,
  slotLabelWithOffset,
  unsyncedSlots,
  type Grain,
} from '../lib/series.js';
import { activeDays, type OverviewData, type StackBy } from './overview-data.js';

interface Stat {
  label: string;
  value: string;
  exact: string;
  delta: number | null;
  /** For cost, up is not good news: shown neutral. */
  neutral?: boolean;
  /** A line in place of the comparison (what the number means). */
  note?: string;
}

export const TotalsPanel = memo(function TotalsPanel({
  data,
  streak,
}: {
  data: OverviewData;
  streak: number | undefined;
}) {
  const t = data.summary.totals;
  const p = data.previous.totals;
  const days = activeDays(data.daily);
  const prevDays = activeDays(data.previousDaily);
  const avg = days ? Number(t.billable_total_tokens) / days : 0;
  const prevAvg = prevDays ? Number(p.billable_total_tokens) / prevDays : 0;
  const share = cacheShare(data.breakdown.sources);
  // Nothing before: no comparison on any card; "new" once, on the first.
  const nothingBefore = p.total_tokens === '0';
  const showBillable = t.billable_total_tokens !== t.total_tokens;
  const stats: Stat[] = [
    {
      label: 'Tokens',
      value: humanCount(t.total_tokens),
      exact: `${exactCount(t.total_tokens)} tokens, as the tools reported them`,
      delta: change(Number(t.total_tokens), Number(p.total_tokens)),
    },
    ...(showBillable
      ? [
          {
            label: 'Billable tokens',
            value: humanCount(t.billable_total_tokens),
            exact: `${exactCount(t.billable_total_tokens)} billable tokens`,
            delta: null,
            note: 'each token counted once',
          },
        ]
      : []),
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
      note: 'current',
    },
    {
      label: 'Per active day',
      value: humanCount(avg),
      exact: `${exactCount(Math.round(avg))} billable tokens on an average active day`,
      delta: change(avg, prevAvg),
    },
    {
      label: 'Cache-hit share',
      value: humanPercent(share),
      exact: `${(share * 100).toFixed(2)} % of input read from cache`,
      delta: null,
      note: 'of input',
    },
  ];
  return (
    <div>
      <div className={`stats ${showBillable ? '' : 'six'}`} role="list">
        {stats.map((s, i) => (
          <div key={s.label} className="stat" role="listitem" title={s.exact}>
            <div className="stat-label">{s.label}</div>
            <div className="stat-value" data-testid={`stat-${s.label.toLowerCase().replaceAll(' ', '-')}`}>
              {s.value}
            </div>
            {s.note !== undefined ? (
              <div className="stat-delta neutral">{s.note}</div>
            ) : nothingBefore ? (
              <div className="stat-delta neutral" data-testid={i === 0 ? 'stat-new' : undefined}>
                {i === 0 && t.total_tokens !== '0' ? 'new · nothing the period before' : '\u00a0'}
              </div>
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
      {showBillable && (
        <p className="footnote">
          Billable tokens count every token once by its tool&apos;s convention (cache reads and reasoning included
          once); prices apply to them. Tokens is what the tools reported.
        </p>
      )}
    </div>
  );
});

/** Axis and legend labels of a slot: half-hours, days, weeks ("week of …") or months; years when the range spans several. */
function slotLabels(xs: readonly string[], kind: 'hourly' | Grain): { short: string[]; long: string[] } {
  if (kind === 'hourly') return { short: xs.map(slotLabel), long: xs.map(slotLabelWithOffset) };
  const years = new Set(xs.map((x) => x.slice(0, 4))).size > 1;
  if (kind === 'month')
    return { short: xs.map((x) => humanMonth(x.slice(0, 7))), long: xs.map((x) => humanMonth(x.slice(0, 7))) };
  const short = xs.map((x) => (years ? humanDate(x) : humanDate(x).replace(/,? \d{4}$/, '')));
  const long = xs.map((x) => (kind === 'week' ? `Week of ${humanDate(x)}` : humanDate(x, undefined, true)));
  return { short, long };
}

export const TrendPanel = memo(function TrendPanel({
  data,
  by,
  unit,
  nowMs,
  weekStart,
}: {
  data: OverviewData;
  by: StackBy;
  unit: 'tokens' | 'cost';
  nowMs: number;
  weekStart: 0 | 1;
}) {
  const trend = data.trend;
  const hourly = trend.kind === 'hourly';
  const grain: Grain = hourly ? 'day' : grainOf(trend.xs.length);
  const grouped = useMemo(() => {
    const priced =
      unit === 'cost'
        ? trend.layers.map((l, i) => ({ ...l, values: l.values.map((v) => v * (trend.costRates[i] ?? 0)) }))
        : trend.layers;
    return hourly ? { xs: trend.xs, layers: priced } : groupSlots(trend.xs, priced, grain, weekStart);
  }, [trend, unit, grain, weekStart, hourly]);
  const { short: labels, long: longLabels } = useMemo(
    () => slotLabels(grouped.xs, hourly ? 'hourly' : grain),
    [grouped, hourly, grain],
  );
  const layers = grouped.layers;
  const unsynced = useMemo(
    () =>
      hourly && trend.hourly ? unsyncedSlots(trend.hourly.data, trend.hourly.sync.last_sync_at, nowMs) : undefined,
    [trend, hourly, nowMs],
  );
  const fmt = (v: number) => (unit === 'cost' ? `≈ ${humanUsd(v)}` : exactCount(Math.round(v)));
  if (layers.length === 0 || layers.every((l) => l.values.every((v) => v === 0))) {
    return <p className="muted empty-chart">No usage in this range.</p>;
  }
  const slotName = hourly ? 'Half-hour' : grain === 'day' ? 'Day' : grain === 'week' ? 'Week' : 'Month';
  const table = () => (
    <table className="data-table">
      <caption className="sr-only">{`${unit === 'cost' ? 'Estimated cost' : 'Billable tokens'} per ${slotName.toLowerCase()} and ${by}`}</caption>
      <thead>
        <tr>
          <th scope="col">{slotName}</th>
          {layers.map((l) => (
            <th scope="col" key={l.key} className="num">
              {l.label ?? l.key}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {grouped.xs.map((x, i) => (
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
    <>
      {grain !== 'day' && (
        <p className="muted small flush">One bar per {grain}; the first and the last may be partial.</p>
      )}
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
    </>
  );
});
