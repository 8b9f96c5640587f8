/** @fileoverview The overview's tables: models by source (grouped names, cost, share) and the days (cost per day, empty runs folded). */
import { Fragment, memo, useMemo } from 'react';
import { groupModels, keyColour, sourceName } from '../../../src/domain/model-names.js';
import { toCsv } from '../lib/csv.js';
import { exactCount, exactUsd, humanCount, humanDate, humanPercent, humanUsd } from '../lib/format.js';
import { estimateSlotCosts, foldEmptyRuns, sortRows, type SortKey, type TokenRow } from '../lib/series.js';
import type { OverviewData, SourceRow } from './overview-data.js';

export type Unit = 'tokens' | 'cost';

const measure = (t: { billable_total_tokens: string; total_cost_usd: string }, unit: Unit) =>
  unit === 'cost' ? Number(t.total_cost_usd) : Number(t.billable_total_tokens);

/** One colour dot (the key's colour in every chart). */
export function Swatch({ colour }: { colour: string }) {
  return <span className="swatch" style={{ background: colour }} aria-hidden="true" />;
}

export const ModelBreakdown = memo(function ModelBreakdown({ sources, unit }: { sources: SourceRow[]; unit: Unit }) {
  const sorted = useMemo(
    () =>
      [...sources]
        .sort((a, b) => measure(b.totals, unit) - measure(a.totals, unit))
        .map((s) => ({
          ...s,
          groups: groupModels(s.models).sort((a, b) => measure(b.totals, unit) - measure(a.totals, unit)),
        })),
    [sources, unit],
  );
  const total = sources.reduce((s, x) => s + measure(x.totals, unit), 0);
  if (sources.length === 0) return <p className="muted">No models used in this range.</p>;
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Models table (scrolls sideways on a phone)">
      <table className="data-table models">
        <caption className="sr-only">
          Billable tokens, cost and share of {unit === 'cost' ? 'cost' : 'tokens'} per model, grouped by source
        </caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Tokens
            </th>
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col" className="num">
              Share
            </th>
          </tr>
        </thead>
        {sorted.map((s) => (
          <tbody key={s.source}>
            <tr className="group-row">
              <th scope="rowgroup">
                <Swatch colour={keyColour(s.source, 'source')} />
                {sourceName(s.source)}
              </th>
              <td className="num" title={exactCount(s.totals.billable_total_tokens)}>
                {humanCount(s.totals.billable_total_tokens)}
              </td>
              <td className="num" title={exactUsd(s.totals.total_cost_usd)}>
                {humanUsd(s.totals.total_cost_usd)}
              </td>
              <td className="num">{humanPercent(total ? measure(s.totals, unit) / total : 0)}</td>
            </tr>
            {s.groups.map((g) => {
              const share = total ? measure(g.totals, unit) / total : 0;
              const dated = g.variants.filter((v) => v.date !== null);
              const priced = g.variants.find((v) => v.priced_as && v.priced_as !== v.model_id)?.priced_as;
              return (
                <tr key={g.base} data-model={g.base}>
                  <th scope="row">
                    <span className="model-name">
                      <Swatch colour={keyColour(g.base, 'model')} />
                      <span title={g.variants.map((v) => v.model_id).join(', ')}>{g.name}</span>
                      {priced && <span className="badge">priced as {priced}</span>}
                    </span>
                    {(dated.length > 0 || g.variants.length > 1) && (
                      <span className="model-dates muted small">
                        {g.variants.map((v) => v.date ?? 'undated').join(' · ')}
                      </span>
                    )}
                  </th>
                  <td className="num" title={exactCount(g.totals.billable_total_tokens)}>
                    {humanCount(g.totals.billable_total_tokens)}
                  </td>
                  <td className="num" title={exactUsd(g.totals.total_cost_usd)}>
                    {humanUsd(g.totals.total_cost_usd)}
                  </td>
                  <td className="num">
                    <span className="share-bar" aria-hidden="true">
                      <span style={{ width: `${Math.max(1, share * 100)}%` }} />
                    </span>
                    {humanPercent(share)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        ))}
      </table>
    </div>
  );
});

type DayKey = SortKey | 'cost';
const COLUMNS: Array<{ key: DayKey; label: string }> = [
  { key: 'day', label: 'Day' },
  { key: 'total_tokens', label: 'Tokens' },
  { key: 'billable_total_tokens', label: 'Billable' },
  { key: 'cost', label: 'Cost ≈' },
  { key: 'input_tokens', label: 'Input' },
  { key: 'cached_input_tokens', label: 'Cached input' },
  { key: 'output_tokens', label: 'Output' },
  { key: 'reasoning_output_tokens', label: 'Reasoning' },
];

export const DailyTable = memo(function DailyTable({
  data,
  sort,
  descending,
  showEmpty,
  unit,
  onSort,
  onOpen,
  onShowEmpty,
}: {
  data: OverviewData;
  sort: DayKey;
  descending: boolean;
  showEmpty: boolean;
  unit: Unit;
  onSort: (k: DayKey) => void;
  onOpen: (day: string) => void;
  onShowEmpty: (show: boolean) => void;
}) {
  const totalCost = Number(data.summary.totals.total_cost_usd);
  const costs = useMemo(() => {
    const t = data.trend;
    if (t.kind === 'hourly') return new Map(data.daily.data.map((r) => [r.day, totalCost]));
    const est = estimateSlotCosts(t.layers, t.costRates, totalCost);
    return new Map(t.xs.map((x, i) => [x, est[i] ?? 0]));
  }, [data, totalCost]);
  const billableDiffers = data.daily.data.some((r) => r.billable_total_tokens !== r.total_tokens);
  const columns = COLUMNS.filter((c) => c.key !== 'billable_total_tokens' || billableDiffers);
  // The unit toggle puts the measure it names right after the day.
  if (unit === 'cost')
    columns.splice(
      1,
      0,
      ...columns.splice(
        columns.findIndex((c) => c.key === 'cost'),
        1,
      ),
    );
  const rows = useMemo(() => {
    const withCost = data.daily.data.map((r) => ({ ...r, cost: costs.get(r.day) ?? 0 }));
    const sorted =
      sort === 'cost'
        ? [...withCost].sort((a, b) => (descending ? b.cost - a.cost : a.cost - b.cost) || a.day.localeCompare(b.day))
        : sortRows(withCost, sort, descending);
    if (showEmpty) return sorted.map((row) => ({ row }));
    return sort === 'day'
      ? foldEmptyRuns(sorted)
      : sorted.filter((r) => r.total_tokens !== '0').map((row) => ({ row }));
  }, [data, costs, sort, descending, showEmpty]);
  const empty = data.daily.data.filter((r) => r.total_tokens === '0').length;
  const download = () => {
    const keys = COLUMNS.map((c) => (c.key === 'cost' ? 'estimated_cost_usd' : c.key));
    const csv = toCsv(
      keys,
      data.daily.data.map((r) =>
        COLUMNS.map((c) =>
          c.key === 'day' ? r.day : c.key === 'cost' ? (costs.get(r.day) ?? 0).toFixed(6) : r[c.key as keyof TokenRow],
        ),
      ),
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
        {empty > 0 && (
          <label className="check">
            <input type="checkbox" checked={!showEmpty} onChange={(e) => onShowEmpty(!e.target.checked)} /> Hide empty
            days ({empty})
          </label>
        )}
        <button type="button" className="btn btn-small" onClick={download}>
          Download CSV
        </button>
      </div>
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Days table (scrolls sideways on a phone)">
        <table className="data-table" data-testid="daily-table">
          <caption className="sr-only">Tokens and estimated cost per day; column headers sort</caption>
          <thead>
            <tr>
              {columns.map((c) => (
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
            {rows.map((entry) =>
              'gap' in entry ? (
                <tr key={`gap-${entry.gap.from}`} className="gap-row" data-testid="empty-run">
                  <th scope="row" colSpan={columns.length} className="muted">
                    {entry.gap.days === 1
                      ? `${humanDate(entry.gap.from, undefined, true)}: no usage`
                      : `${humanDate(entry.gap.from < entry.gap.to ? entry.gap.from : entry.gap.to)} – ${humanDate(entry.gap.from < entry.gap.to ? entry.gap.to : entry.gap.from)}: no usage (${entry.gap.days} days)`}
                  </th>
                </tr>
              ) : (
                <tr key={entry.row.day}>
                  {columns.map((c) => (
                    <Fragment key={c.key}>
                      {c.key === 'day' ? (
                        <th scope="row">
                          <a
                            href={`?range=custom&from=${entry.row.day}&to=${entry.row.day}`}
                            onClick={(e) => (e.preventDefault(), onOpen(entry.row.day))}
                          >
                            {humanDate(entry.row.day, undefined, true)}
                          </a>
                        </th>
                      ) : c.key === 'cost' ? (
                        <td className="num" title="Estimated from each source's average price in the range">
                          {entry.row.total_tokens === '0' ? '—' : humanUsd(entry.row.cost)}
                        </td>
                      ) : (
                        <td className="num">{exactCount(entry.row[c.key])}</td>
                      )}
                    </Fragment>
                  ))}
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
      <p className="footnote">
        A day&apos;s cost is estimated from the average price of each source or model in the range; the days add up to
        the exact total above.
      </p>
    </>
  );
});
